import { chooseLanguage } from './negotiate';

describe('chooseLanguage', () => {
  const choose = (acceptLanguage?: string, asked?: unknown, fallback: 'en' | 'fr' = 'fr') =>
    chooseLanguage({ asked, acceptLanguage }, fallback);

  it('takes ?lang= first, when the pages speak it', () => {
    expect(choose('es-ES', 'de')).toBe('de');
    expect(choose('es-ES', 'xx')).toBe('es');
    expect(choose(undefined, ['de'])).toBe('fr');
  });

  it("reads Accept-Language: a region falls to its language, q-values order, '*' is the fallback's", () => {
    expect(choose('es-ES')).toBe('es');
    expect(choose('de-AT,de;q=0.9')).toBe('de');
    expect(choose('ja, en;q=0.4, es;q=0.8')).toBe('es');
    expect(choose('ja, *;q=0.1')).toBe('fr');
    expect(choose('en-GB', undefined, 'en')).toBe('en');
  });

  it("an unknown or malformed language is the fallback's", () => {
    expect(choose('ja')).toBe('fr');
    expect(choose('')).toBe('fr');
    expect(choose(';;;,,q=')).toBe('fr');
    expect(choose(`${'x'.repeat(10_000)},es`)).toBe('fr');
  });
});
