import type { Language } from '../../common/i18n';
import { type Account, logoOriginOf } from '../accounts';
import type { PageLook } from './layout';
import type { PageOptions } from './page-security';

/** How an account's pages are sent: who may frame them, and the origin of its logo (CSP). */
export const frameOf = (account: Account): PageOptions => ({
  frameAncestors: account.embedOrigins ?? [],
  imageOrigin: logoOriginOf(account.logoUrl),
});

/** The account's look, in a language; `here` for the links to the page in other languages. */
export const lookOf = (account: Account, lang: Language, here?: string): PageLook => ({
  lang,
  accentColor: account.accentColor,
  logoUrl: account.logoUrl,
  name: account.name,
  here,
});
