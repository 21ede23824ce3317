import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';

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
        <main id="main">{props.children}</main>
      </body>
    </html>
  );
}

/** A page as HTML: preact escapes every text and attribute value it renders. */
export function html(page: preact.VNode): string {
  return `<!doctype html>\n${render(page)}`;
}

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

export function MessagePage(props: { title: string; message: string; link?: [string, string] }) {
  return (
    <Layout title={props.title}>
      <h1>{props.title}</h1>
      <Notice kind="error">{props.message}</Notice>
      {props.link && (
        <p>
          <a href={props.link[0]}>{props.link[1]}</a>
        </p>
      )}
    </Layout>
  );
}
