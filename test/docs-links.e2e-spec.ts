import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..');

/** The documentation a reader follows: the README and docs/*.md. */
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file offers: its headings' slugs (repeats get -1, -2, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

/** What is wrong with the relative links of `file` (a path under ROOT): none when all resolve. */
export function linkProblems(file: string, markdown: string, root = ROOT): string[] {
  const problems: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:: not ours to check
    const [path, anchor] = target.split('#', 2);
    if (path.startsWith('/')) {
      problems.push(`${file}: ${target} is absolute; link relative to the file`);
      continue;
    }
    const absolute = path
      ? resolve(root, dirname(file), decodeURIComponent(path))
      : join(root, file);
    const inRepo = relative(root, absolute);
    if (inRepo.startsWith('..')) {
      problems.push(`${file}: ${target} points outside the repository`);
      continue;
    }
    if (!existsSync(absolute)) {
      problems.push(`${file}: ${target}: no such file`);
      continue;
    }
    if (anchor && statSync(absolute).isFile() && absolute.endsWith('.md')) {
      const linked = path ? readFileSync(absolute, 'utf8') : markdown;
      if (!anchors(linked).has(anchor))
        problems.push(`${file}: ${target}: no heading with that anchor in ${inRepo}`);
    }
  }
  return problems;
}

describe('Docs: every relative link of the README and docs/ resolves inside the repository', () => {
  it.each(DOCS)('%s', (file) => {
    const markdown = readFileSync(join(ROOT, file), 'utf8');
    expect(linkProblems(file, markdown)).toEqual([]);
    // Nothing outside the repository, not even named: a clone has no ../shared.
    expect(markdown).not.toMatch(/\.\.\/shared/);
  });

  it('the README stays short: at most 200 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(
      200,
    );
  });

  it('the check finds a missing file, a missing anchor and a link out of the repository', () => {
    const markdown = [
      '# Title',
      '## OAuth 2.0',
      '[ok](docs/api.md) [ok](#oauth-20) [ok](docs/api.md#errors) [web](https://example.com)',
      '[gone](docs/nothing.md) [bad anchor](#nowhere) [out](../shared/spec.md) [abs](/etc/passwd)',
      '`[in code](nowhere.md)`',
      '```',
      '[in a block](nowhere.md)',
      '```',
    ].join('\n');
    expect(linkProblems('README.md', markdown)).toEqual([
      'README.md: docs/nothing.md: no such file',
      'README.md: #nowhere: no heading with that anchor in README.md',
      'README.md: ../shared/spec.md points outside the repository',
      'README.md: /etc/passwd is absolute; link relative to the file',
    ]);
  });

  it('anchors are the slugs GitHub makes', () => {
    expect(slug('OAuth 2.0')).toBe('oauth-20');
    expect(slug('Notifications: confirmation e-mail and SMS, reminders')).toBe(
      'notifications-confirmation-e-mail-and-sms-reminders',
    );
    expect(slug('`bench:scale`')).toBe('benchscale');
  });
});
