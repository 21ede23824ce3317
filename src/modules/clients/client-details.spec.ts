import { identityKey, phoneKey } from './client-details';

const jane = { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com', phone: '' };

describe('client details', () => {
  it.each([
    ['+1 (555) 010-0000', '15550100000'],
    [' 555 0100 ', '5550100'],
    ['ext. none', 'ext. none'],
    ['', ''],
  ])('reads the phone %p as %p', (phone, key) => {
    expect(phoneKey(phone)).toBe(key);
  });

  it('names one person whatever the case, spacing and composition of the name and e-mail', () => {
    const key = identityKey(jane);
    expect(identityKey({ ...jane, firstName: ' JANE ', email: 'Jane@Example.com ' })).toBe(key);
    expect(identityKey({ ...jane, firstName: 'Zoe\u0301' })).toBe(
      identityKey({ ...jane, firstName: 'Zo\u00e9' }),
    );
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keys on the e-mail, else the phone (by its digits), else the name alone', () => {
    // With an e-mail, the phone does not count.
    expect(identityKey({ ...jane, phone: '555 0100' })).toBe(identityKey(jane));
    expect(identityKey({ ...jane, email: 'other@example.com' })).not.toBe(identityKey(jane));
    const byPhone = { ...jane, email: '', phone: '+1 555 0100' };
    expect(identityKey({ ...byPhone, phone: '15550100' })).toBe(identityKey(byPhone));
    expect(identityKey({ ...byPhone, phone: '15550199' })).not.toBe(identityKey(byPhone));
    const byName = { ...jane, email: '', phone: '' };
    expect(identityKey(byName)).not.toBe(identityKey(byPhone));
    expect(identityKey(byName)).not.toBe(identityKey(jane));
    // The parts cannot run into each other.
    expect(identityKey({ ...byName, firstName: 'Jane Doe', lastName: '' })).not.toBe(
      identityKey(byName),
    );
  });
});
