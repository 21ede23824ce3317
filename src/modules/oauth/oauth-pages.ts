import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../common/html/escape-html';
import { API_SCOPE } from './oauth.errors';

/** The only style: the CSP allows its hash alone, so if escaping failed, nothing injected runs. */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f3f4f6}
main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #d0d7de;border-radius:.5rem}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 1rem}
p,ul{margin:0 0 1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{display:block;width:100%;padding:.5rem .625rem;font:inherit;border:1px solid #6e7781;border-radius:.375rem;margin-bottom:1rem}
button{font:inherit;font-weight:600;padding:.5rem 1.25rem;border-radius:.375rem;border:1px solid #0a5c2f;background:#116b39;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1b1f24;border-color:#6e7781;margin-left:.5rem}
button.link{background:none;border:0;padding:0;color:#0550ae;font-weight:400;text-decoration:underline}
input:focus,button:focus{outline:3px solid #0969da;outline-offset:2px}
.error{padding:.75rem 1rem;border:1px solid #cf222e;border-radius:.375rem;background:#ffebe9;color:#82071e}
.small{font-size:.875rem;color:#57606a}
.actions{margin-bottom:1.5rem}
code{word-break:break-all}
`.trim();

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;

/** `formTargets`: where a form's answer redirects (Chromium applies `form-action` to it too). */
export function contentSecurityPolicy(formTargets: string[]): string {
  const formAction = ["'self'", ...formTargets].join(' ');
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Headers of every page and redirect of the authorization endpoint. */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(formTargets),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // The authorize URL carries the app's state; the redirect carries the code.
    'referrer-policy': 'no-referrer',
    // Pages carry a CSRF token and account details.
    'cache-control': 'no-store',
  };
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function errorNotice(message: string | undefined): string {
  return message === undefined
    ? ''
    : `<p class="error" role="alert" id="form-error">${escapeHtml(message)}</p>\n`;
}

export function loginPage(page: {
  appName: string;
  /** The authorization request's query: the form posts back to it. */
  query: string;
  csrf: string;
  email?: string;
  error?: string;
}): string {
  const app = escapeHtml(page.appName);
  const described =
    page.error === undefined ? '' : ' aria-describedby="form-error" aria-invalid="true"';
  return layout(
    `Sign in to connect ${page.appName}`,
    `<h1>Sign in to connect ${app}</h1>
<p>${app} wants to connect to your scheduling account. Sign in with your account's e-mail address and password to continue.</p>
${errorNotice(page.error)}<form method="post" action="/oauth2/login?${escapeHtml(page.query)}">
<input type="hidden" name="csrf" value="${escapeHtml(page.csrf)}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(page.email ?? '')}"${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${described}>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function consentPage(page: {
  appName: string;
  accountName: string;
  accountEmail: string;
  /** Where the answer goes (the redirect URI's origin), shown to the user. */
  redirectOrigin: string;
  query: string;
  csrf: string;
  error?: string;
}): string {
  const app = escapeHtml(page.appName);
  const query = escapeHtml(page.query);
  const csrf = escapeHtml(page.csrf);
  return layout(
    `Allow ${page.appName} to access your account?`,
    `<h1>Allow ${app} to access your account?</h1>
<p>You are signed in as <strong>${escapeHtml(page.accountName)}</strong> (${escapeHtml(page.accountEmail)}).</p>
${errorNotice(page.error)}<p>${app} asks for access to the scheduling API (scope <code>${API_SCOPE}</code>). It will be able to act on your account as you can:</p>
<ul>
<li>see and change your calendars, appointment types, forms, products, coupons and settings;</li>
<li>see your clients' appointments, book, reschedule and cancel them;</li>
<li>see and manage certificates, orders, blocks and webhooks.</li>
</ul>
<p>This lasts until ${app} disconnects. Your password is not shared with ${app}.</p>
<form method="post" action="/oauth2/authorize?${query}" class="actions">
<input type="hidden" name="csrf" value="${csrf}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>
<p class="small">Either way you will be sent back to <code>${escapeHtml(page.redirectOrigin)}</code>.</p>
<form method="post" action="/oauth2/logout?${query}">
<input type="hidden" name="csrf" value="${csrf}">
<button type="submit" class="link">Not you? Sign in with another account</button>
</form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>Go back to the application and try again. If this keeps happening, tell its developer.</p>`,
  );
}

/** Sends a page with the headers every page has; `cookie` is a Set-Cookie value. */
export function sendPage(
  reply: FastifyReply,
  status: number,
  html: string,
  options: { formTargets?: string[]; cookie?: string; headers?: Record<string, string> } = {},
): void {
  void reply
    .code(status)
    .headers({ ...pageHeaders(options.formTargets), ...options.headers })
    .type('text/html; charset=utf-8');
  if (options.cookie !== undefined) void reply.header('set-cookie', options.cookie);
  void reply.send(html);
}

/** 302 after a GET, 303 after a form's POST (the browser then GETs the target). */
export function sendRedirect(
  reply: FastifyReply,
  method: string,
  location: string,
  options: { formTargets?: string[]; cookie?: string } = {},
): void {
  void reply.code(method === 'GET' ? 302 : 303).headers(pageHeaders(options.formTargets));
  if (options.cookie !== undefined) void reply.header('set-cookie', options.cookie);
  void reply.header('location', location).send();
}
