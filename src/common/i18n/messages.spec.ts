import { type Token, parse } from '@messageformat/parser';
import { CATALOGUES, type MessageKey, messagesOf } from './messages';
import { LANGUAGES } from './languages';

/** The arguments a message names (`{date}`, `{count, plural, …}`), nested ones included. */
function argumentsOf(tokens: Token[], into = new Set<string>()): Set<string> {
  for (const token of tokens) {
    if (token.type === 'argument' || token.type === 'function') into.add(token.arg);
    if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
      into.add(token.arg);
      for (const c of token.cases) argumentsOf(c.tokens, into);
    }
  }
  return into;
}

const english = CATALOGUES.en as Record<MessageKey, string>;
const keys = Object.keys(english).sort() as MessageKey[];

describe('message catalogues', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s has every message of English, and no other',
    (language) => {
      const catalogue = CATALOGUES[language];
      expect(keys.filter((k) => typeof catalogue[k] !== 'string')).toEqual([]);
      expect(Object.keys(catalogue).filter((k) => !(k in english))).toEqual([]);
    },
  );

  it.each(LANGUAGES)(
    '%s: every message parses and names the arguments English names',
    (language) => {
      const catalogue = CATALOGUES[language];
      for (const key of keys) {
        const source = catalogue[key];
        if (source === undefined) continue;
        const args = [...argumentsOf(parse(source))].sort();
        expect({ key, args }).toEqual({ key, args: [...argumentsOf(parse(english[key]))].sort() });
      }
    },
  );

  it('formats plurals and selects in each language', () => {
    expect(messagesOf('en')('common.minutes', { minutes: 1 })).toBe('1 minute');
    expect(messagesOf('es')('confirm.series', { count: 3 })).toBe('Su serie: 3 citas');
    expect(messagesOf('de')('email.cadence', { frequency: 'weekly', interval: 2 })).toBe(
      'alle 2 Wochen',
    );
    expect(
      messagesOf('fr')('moment', { date: 'lundi 4 janvier 2027', time: '09:30', zone: 'UTC' }),
    ).toBe('lundi 4 janvier 2027 à 09:30 (UTC)');
  });

  it('a message a catalogue lacks is the English one, not a failure', () => {
    const spanish = CATALOGUES.es;
    const kept = spanish['price.free'];
    delete spanish['price.free'];
    try {
      expect(messagesOf('es')('price.free')).toBe('Free');
    } finally {
      spanish['price.free'] = kept;
    }
  });
});
