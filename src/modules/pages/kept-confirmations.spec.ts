import { HOUR } from '../../common/time/durations';
import type { AppointmentView } from '../appointments';
import type { Appointment } from '../availability';
import { type Confirmation, KeptConfirmations } from './kept-confirmations';

const NOW = Date.UTC(2030, 5, 1, 12);

/** An appointment of account 7 starting 30 hours after NOW, as the page read it at NOW. */
function confirmation(id = 1): Confirmation {
  const appointment = {
    id,
    accountId: 7,
    canceled: false,
    startsAt: new Date(NOW + 30 * HOUR),
  } as Appointment;
  const view = { id, firstName: 'Ada', canClientCancel: true, canClientReschedule: true };
  return { appointment, view: view as AppointmentView };
}

describe('KeptConfirmations', () => {
  it('learns the account of every row read, and keeps a row only under an epoch read before it', () => {
    const kept = new KeptConfirmations(60_000);
    expect(kept.accountOf(1)).toBeUndefined();
    kept.keep(confirmation(), 'T1', undefined, NOW);
    expect(kept.accountOf(1)).toBe(7);
    expect(kept.get(1, 'T1', 'e1', NOW, 0)).toBeUndefined();
    kept.keep(confirmation(), 'T1', 'e1', NOW);
    expect(kept.get(1, 'T1', 'e1', NOW, 0)?.view.firstName).toBe('Ada');
  });

  it('serves a row under the epoch it was kept with, for at most the ttl, and drops it after', () => {
    const kept = new KeptConfirmations(60_000);
    kept.keep(confirmation(), 'T1', 'e1', NOW);
    expect(kept.get(1, 'T1', 'e1', NOW + 60_000, 0)).toBeDefined();
    expect(kept.get(1, 'T1', 'e1', NOW + 60_001, 0)).toBeUndefined();
    kept.keep(confirmation(), 'T1', 'e1', NOW);
    expect(kept.get(1, 'T1', 'e2', NOW, 0)).toBeUndefined();
    // A stale epoch dropped it: the right one finds nothing either.
    expect(kept.get(1, 'T1', 'e1', NOW, 0)).toBeUndefined();
    expect(kept.get(2, 'T1', 'e1', NOW, 0)).toBeUndefined();
  });

  it('serves a kept row only for the token it was kept with', () => {
    const kept = new KeptConfirmations(60_000);
    kept.keep(confirmation(), '1-aaaa', 'e', NOW);
    for (const token of ['1-aaab', '1-aaa', '1-aaaaa', '', '1-AAAA'])
      expect([token, kept.get(1, token, 'e', NOW, 0)]).toEqual([token, undefined]);
    expect(kept.get(1, '1-aaaa', 'e', NOW, 0)).toBeDefined();
  });

  it('works out again, as of now, whether the client may still cancel or move it', () => {
    const kept = new KeptConfirmations(60 * HOUR);
    kept.keep(confirmation(), 'T1', 'e', NOW);
    const at = (now: number, minHours: number) => {
      const view = kept.get(1, 'T1', 'e', now, minHours)!.view;
      return [view.canClientCancel, view.canClientReschedule];
    };
    expect(at(NOW, 24)).toEqual([true, true]);
    // 24 hours before the start is 6 hours after NOW.
    expect(at(NOW + 6 * HOUR - 1, 24)).toEqual([true, true]);
    expect(at(NOW + 6 * HOUR, 24)).toEqual([false, false]);
    expect(at(NOW + 6 * HOUR, 0)).toEqual([true, true]);
    expect(at(NOW + 30 * HOUR, 0)).toEqual([false, false]);
    // The kept view itself is not changed by what one request was shown.
    expect(at(NOW, 0)).toEqual([true, true]);
  });

  it('keeps nothing with ttl 0, and at most its bound of rows', () => {
    const none = new KeptConfirmations(0);
    none.keep(confirmation(), 'T1', 'e', NOW);
    expect(none.get(1, 'T1', 'e', NOW, 0)).toBeUndefined();
    const two = new KeptConfirmations(60_000, 2);
    for (const id of [1, 2, 3]) two.keep(confirmation(id), `T${id}`, 'e', NOW);
    expect([1, 2, 3].map((id) => two.get(id, `T${id}`, 'e', NOW, 0) !== undefined)).toEqual([
      false,
      true,
      true,
    ]);
  });
});
