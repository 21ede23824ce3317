import MessageFormat, { type MessageFunction } from '@messageformat/core';
import en from './catalogues/en.json';
import es from './catalogues/es.json';
import fr from './catalogues/fr.json';
import de from './catalogues/de.json';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages';

/**
 * The message catalogues: one JSON file per language (`catalogues/{language}.json`), ICU
 * MessageFormat, edited by translators without touching code. English is the reference: its keys
 * are the keys (`MessageKey`), and `messages.spec.ts` fails when another catalogue lacks one, has
 * one English does not, or names other arguments. A page never fails for a missing message: it
 * falls back to English (and the test has already said so).
 */
export type MessageKey = keyof typeof en;

/** A message's arguments: texts and numbers (plural and select read numbers and words). */
export type MessageValues = Record<string, string | number>;

export const CATALOGUES: Record<Language, Partial<Record<MessageKey, string>>> = { en, es, fr, de };

/** A language's messages, formatted: `t('times.heading', { date, zone })`. */
export type Translate = (key: MessageKey, values?: MessageValues) => string;

/** The BCP 47 locale each language formats dates, times and prices in (Intl). */
export const LOCALES: Record<Language, string> = {
  en: 'en-US',
  es: 'es-ES',
  fr: 'fr-FR',
  de: 'de-DE',
};

/*
 * Each message is compiled once, on first use, into a function (MessageFormat compiles ICU to
 * JavaScript); a message without arguments is its text. Compiled per language, and only what is
 * used: a process compiles a few hundred small functions at most.
 */
const compilers = new Map<Language, MessageFormat<'string'>>();
const compiled = new Map<string, MessageFunction<'string'>>();

function compile(language: Language, key: MessageKey): MessageFunction<'string'> {
  const id = `${language}\u0000${key}`;
  let fn = compiled.get(id);
  if (fn) return fn;
  const source = CATALOGUES[language][key];
  if (source === undefined) return compile(DEFAULT_LANGUAGE, key);
  let mf = compilers.get(language);
  if (!mf) {
    mf = new MessageFormat(LOCALES[language], { returnType: 'string' });
    compilers.set(language, mf);
  }
  fn = mf.compile(source);
  compiled.set(id, fn);
  return fn;
}

const translators = new Map<Language, Translate>(
  LANGUAGES.map((language) => [
    language,
    (key: MessageKey, values?: MessageValues) => compile(language, key)(values ?? {}),
  ]),
);

/** The messages of a language. */
export const messagesOf = (language: Language): Translate => translators.get(language)!;
