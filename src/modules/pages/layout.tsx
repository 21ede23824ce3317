import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import { LANGUAGES, type Language, messagesOf } from '../../common/i18n';
import { escaped } from './choice-lists';

/** Where the pages' one stylesheet and one script are served (same origin: CSP `'self'`). */
export const ASSETS = '/pages';

/**
 * What a page looks like and speaks beyond its body: its language (`<html lang>`, every message),
 * the account's accent colour (a stylesheet of its own, `'self'`) and logo (its origin alone is
 * allowed by the page's CSP: page-security), and the links to the same page in other languages.
 */
export interface PageLook {
  lang: Language;
  /** `#rrggbb`, contrast checked when set (PUT /settings); null: the house colours. */
  accentColor?: string | null;
  /** An https URL checked when set (PUT /settings). */
  logoUrl?: string | null;
  /** The business's name: the logo's text. */
  name?: string;
  /** The page's URL without `lang` (path and query), for the language links; none on a POST. */
  here?: string;
}

function Layout(props: { children: ComponentChildren }) {
  return (
    <html lang="{lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{'{title}'}</title>
        <link rel="stylesheet" href={`${ASSETS}/pages.css`} />
        {'{head}'}
        <script src={`${ASSETS}/pages.js`} defer />
      </head>
      <body>
        <main id="main">
          {'{logo}'}
          <h1>{'{title}'}</h1>
          {props.children}
        </main>
        {'{footer}'}
      </body>
    </html>
  );
}

/** The layout as preact writes it, cut where the parts of each page go: written once. */
const SHELL = `<!doctype html>\n${render(<Layout>{'{body}'}</Layout>)}`.split(
  /\{lang\}|\{title\}|\{head\}|\{logo\}|\{body\}|\{footer\}/,
);

/** The stylesheet of an accent colour (AssetsController): one per colour, cached for good. */
export const accentSheet = (color: string) => `${ASSETS}/accent-${color.slice(1)}.css`;

/** Links to the page in each other language (`?lang=`), each named in its own language. */
function languageLinks(look: PageLook): string {
  if (look.here === undefined) return '';
  const [path, query = ''] = look.here.split('?');
  let links = '';
  for (const lang of LANGUAGES) {
    if (lang === look.lang) continue;
    const params = new URLSearchParams(query);
    params.set('lang', lang);
    const href = `${path}?${params.toString()}`;
    links += ` <a href="${escaped(href)}" lang="${lang}" hreflang="${lang}">${messagesOf(lang)('language.name')}</a>`;
  }
  return `<nav class="languages" aria-label="${escaped(messagesOf(look.lang)('language.choose'))}">${links}</nav>`;
}

/** A page of a body already written as HTML (escaped by whoever wrote it), in its look. */
export function pageHtml(look: PageLook, title: string, body: string): string {
  const t = escaped(title);
  const head = look.accentColor
    ? `<link rel="stylesheet" href="${accentSheet(look.accentColor)}"/>`
    : '';
  const logo = look.logoUrl
    ? `<img class="logo" src="${escaped(look.logoUrl)}" alt="${escaped(look.name ?? '')}"/>`
    : '';
  return (
    SHELL[0] +
    look.lang +
    SHELL[1] +
    t +
    SHELL[2] +
    head +
    SHELL[3] +
    logo +
    SHELL[4] +
    t +
    SHELL[5] +
    body +
    SHELL[6] +
    languageLinks(look) +
    SHELL[7]
  );
}

/** A page of preact elements: preact escapes every text and attribute value it renders. */
export const elementsPage = (look: PageLook, title: string, body: preact.VNode) =>
  pageHtml(look, title, render(body));

/** Hidden inputs as HTML: what `<Carry>` writes. */
export function carried(pairs: [string, string][]): string {
  let html = '';
  for (const [name, value] of pairs)
    html += `<input type="hidden" name="${escaped(name)}" value="${escaped(value)}"/>`;
  return html;
}

/** An error notice of a text as HTML: what `<Notice kind="error">` writes. */
export const errorNotice = (text: string) =>
  `<p class="notice error" role="alert">${escaped(text)}</p>`;

/** A page of an error notice alone, as HTML. */
export const messagePage = (look: PageLook, title: string, message: string) =>
  pageHtml(look, title, errorNotice(message));

/** Hidden inputs that carry the earlier steps' choices. */
export function Carry(props: { pairs: [string, string][] }) {
  return (
    <>
      {props.pairs.map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** A notice read out when it appears: an error (alert) or news (status). */
export function Notice(props: {
  kind: 'error' | 'info';
  id?: string;
  children: ComponentChildren;
}) {
  return (
    <p
      id={props.id}
      class={`notice ${props.kind}`}
      role={props.kind === 'error' ? 'alert' : 'status'}
    >
      {props.children}
    </p>
  );
}
