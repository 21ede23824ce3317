import { assertAccentColor, assertLanguage, assertLogoUrl, logoOriginOf } from './account-rules';

describe('assertLanguage', () => {
  it.each(['en', 'es', 'fr', 'de'])('keeps %p', (language) => {
    expect(assertLanguage(language)).toBe(language);
  });

  it.each(['xx', 'EN', 'en-US', '', ' en'])('refuses %p, naming the languages', (language) => {
    expect(() => assertLanguage(language)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'invalid_language',
        message: `Invalid language "${language}": the pages speak en, es, fr or de.`,
      }),
    );
  });
});

describe('assertAccentColor', () => {
  it.each([
    ['#000000', '#000000'],
    ['#1A73E8', '#1a73e8'],
    ['#767676', '#767676'],
  ])('keeps %p as %p', (color, stored) => {
    expect(assertAccentColor(color)).toBe(stored);
  });

  it.each([
    ['#ffcc00', '1.5'],
    ['#FFFFFF', '1.0'],
    ['#777777', '4.4'],
    ['#ff0000', '3.9'],
  ])('refuses %p, whose contrast against white is %s:1 (rounded down)', (color, ratio) => {
    expect(() => assertAccentColor(color)).toThrow(
      expect.objectContaining({
        code: 'invalid_accent_color',
        message: `Invalid "accentColor" ${color}: its contrast against white is ${ratio}:1, and text on the pages needs at least 4.5:1 (WCAG AA). Choose a darker colour.`,
      }),
    );
  });

  it.each(['red', '#fff', '#12345g', '123456', '#1234567', ' #123456', ''])(
    'refuses %p as no colour',
    (color) => {
      expect(() => assertAccentColor(color)).toThrow(
        expect.objectContaining({
          code: 'invalid_accent_color',
          message: `Invalid "accentColor" "${color}": a colour is #rrggbb (six hexadecimal digits).`,
        }),
      );
    },
  );
});

/** What a page's CSP and `<img src>` must never receive. */
const HOSTILE = [
  'https://a;script-src *',
  'https://a;script-src',
  "https://a'b/logo.png",
  'https://a%3Bb/logo.png',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  'http://shop.example/logo.png',
  'https://u:p@shop.example/logo.png',
  'https://u@shop.example/logo.png',
  'https://shop.example/logo.png\n',
  'https://shop.example/lo\ngo.png',
  'https://shop.\nexample/logo.png',
  ' https://shop.example/logo.png',
  'https://shop.example/lo go.png',
  'https://shop.example/\u202elogo.png',
  'https://shop.example/\u0000logo.png',
  'https://[::1]/logo.png',
  'https://',
  'shop.example/logo.png',
  '',
];

describe('assertLogoUrl', () => {
  it.each([
    ['https://shop.example/logo.png', 'https://shop.example/logo.png'],
    ['https://Shop.Example:8443/a/logo.svg?v=2', 'https://shop.example:8443/a/logo.svg?v=2'],
    ['https://cdn.example', 'https://cdn.example/'],
    ['https://bücher.example/logo.png', 'https://xn--bcher-kva.example/logo.png'],
  ])('keeps %p as %p', (url, stored) => {
    expect(assertLogoUrl(url)).toBe(stored);
  });

  it.each(HOSTILE)('refuses %p', (url) => {
    expect(() => assertLogoUrl(url)).toThrow(
      expect.objectContaining({
        code: 'invalid_logo_url',
        message: `Invalid "logoUrl" "${url}": a logo is an https:// URL (without user name or password).`,
      }),
    );
  });

  it('refuses more than 2048 characters without quoting them', () => {
    const long = `https://shop.example/${'a'.repeat(3000)}`;
    expect(() => assertLogoUrl(long)).toThrow(
      expect.objectContaining({
        code: 'invalid_logo_url',
        message: 'Attribute "logoUrl" is longer than 2048 characters.',
      }),
    );
    const longest = `https://shop.example/${'a'.repeat(2048 - 21)}`;
    expect(assertLogoUrl(longest)).toBe(longest);
  });
});

describe('logoOriginOf', () => {
  it.each([
    [null, null],
    ['https://shop.example/logo.png', 'https://shop.example'],
    ['https://shop.example:443/logo.png', 'https://shop.example'],
    ['https://shop.example:8443/logo.png', 'https://shop.example:8443'],
    ['https://CDN.Shop.example/x/y.svg?v=1#top', 'https://cdn.shop.example'],
  ])('%p → %p', (url, origin) => {
    expect(logoOriginOf(url)).toBe(origin);
  });

  it.each([...HOSTILE, `https://shop.example/${'a'.repeat(3000)}`])(
    'gives no origin for %p',
    (url) => {
      expect(logoOriginOf(url)).toBeNull();
    },
  );
});
