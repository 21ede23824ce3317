import Negotiator from 'negotiator';
import { LANGUAGES, type Language, isLanguage } from './languages';

/** What a request says of its language: `?lang=` (or the form's `lang`), and its header. */
export interface LanguageAsked {
  /** `?lang=`: wins when it names a language the pages speak. */
  asked?: unknown;
  /** `Accept-Language`, as sent (q-values, regions: `es-ES,es;q=0.9,en;q=0.5`). */
  acceptLanguage?: string | string[];
}

/** At most this much of the header is read: every byte read from outside has a bound. */
const MAX_HEADER = 512;

/**
 * The language to write in: `?lang=` if it is one the pages speak, else the best of the
 * browser's `Accept-Language` the pages speak (a region falls to its language: `es-ES` → `es`;
 * `*` is the fallback's), else the fallback (the account's `language`, or the appointment's).
 */
export function chooseLanguage(
  { asked, acceptLanguage }: LanguageAsked,
  fallback: Language,
): Language {
  if (isLanguage(asked)) return asked;
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  if (!header) return fallback;
  const offered = [fallback, ...LANGUAGES.filter((l) => l !== fallback)];
  const [best] = new Negotiator({
    headers: { 'accept-language': header.slice(0, MAX_HEADER) },
  }).languages(offered);
  return isLanguage(best) ? best : fallback;
}
