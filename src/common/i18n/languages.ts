/**
 * The languages the client pages, e-mails and SMS are written in (docs/pages.md, "Languages"):
 * each has a message catalogue in `catalogues/`, English the reference the others are checked
 * against. A new language is a catalogue and a line here.
 */
export const LANGUAGES = ['en', 'es', 'fr', 'de'] as const;

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
