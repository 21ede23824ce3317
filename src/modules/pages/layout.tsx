import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import { escaped } from './choice-lists';

/** Where the pages' one stylesheet and one script are served (same origin: CSP `'self'`). */
export const ASSETS = '/pages';

export function Layout(props: { title: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{props.title}</title>
        <link rel="stylesheet" href={`${ASSETS}/pages.css`} />
        <script src={`${ASSETS}/pages.js`} defer />
      </head>
      <body>
        <main id="main">
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A page as HTML: preact escapes every text and attribute value it renders. */
export function html(page: preact.VNode): string {
  return `<!doctype html>\n${render(page)}`;
}

/** The layout as preact writes it, cut where the title (twice) and the body go: written once. */
const SHELL = html(<Layout title="{title}">{'{body}'}</Layout>).split(/\{title\}|\{body\}/);

/** A page of a body already written as HTML: what `html(<Layout>)` writes around it. */
export function pageHtml(title: string, body: string): string {
  const t = escaped(title);
  return SHELL[0] + t + SHELL[1] + t + SHELL[2] + body + SHELL[3];
}

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
export const messagePage = (title: string, message: string) =>
  pageHtml(title, errorNotice(message));

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
