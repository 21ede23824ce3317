import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * Locks are writes (docs/architecture.md): a lock taken by a read (`FOR UPDATE`, TypeORM's
 * `pessimistic_write`, `LOCK IN SHARE MODE`) holds on its own node of a Galera cluster only, so
 * nothing in src/ may rest on one; lockRows (a write where locks are writes) is the lock. Listed
 * here: lockRows' own read for one server, the calendar's read that is its lock there too (only
 * where locks are not writes), and the claims that write the rows they keep (a lease, a claim),
 * so that the write is what certifies them. The test fails on a locking read that is not listed,
 * and on a listed one that is gone.
 */
const CLAIMS: [file: string, why: string][] = [
  ['common/database/row-locks.ts', "lockStatement's read, used only where locks are not writes"],
  [
    'modules/availability/calendar-locks.repository.ts',
    'the one-statement lock and read, only where locks are not writes (locksWrite)',
  ],
  [
    'modules/availability/resource-usage.repository.ts',
    "the resource days' locking column of that statement, only where locks are not writes",
  ],
  [
    'common/database/leased-rows.ts',
    'claimSome writes the lease of every row it read; lockHeld is followed by finishLocked of those holding',
  ],
  ['common/outbox/outbox.repository.ts', 'the relay writes dispatched_at of every row it took'],
  ['modules/webhooks/webhook-message.repository.ts', 'the rows taken are written by their claim'],
];

const SRC = join(__dirname, '..', '..');
const LOCKING_READ = /FOR UPDATE|LOCK IN SHARE MODE|pessimistic_(?:write|read)|setLock\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !/\.(?:int-)?spec\.ts$/.test(path) ? [path] : [];
  });
}

/** Lines of code (not comments) that take a lock by reading. */
function lockingReads(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line) && LOCKING_READ.test(line));
}

describe('Locks are writes: no lock in src/ rests on a locking read (docs/architecture.md)', () => {
  const found = sourceFiles(SRC).flatMap((path) =>
    lockingReads(path).map((line) => ({ file: relative(SRC, path), line: line.trim() })),
  );

  it('takes no lock by reading, but where listed', () => {
    expect(found.filter((f) => !CLAIMS.some(([file]) => file === f.file))).toEqual([]);
  });

  it('lists no claim that is gone', () => {
    expect(CLAIMS.filter(([file]) => !found.some((f) => f.file === file))).toEqual([]);
  });

  it('sees a locking read where there is one (the scan works)', () => {
    expect(found.length).toBeGreaterThanOrEqual(CLAIMS.length);
    expect(LOCKING_READ.test("lock: { mode: 'pessimistic_write' }")).toBe(true);
    expect(LOCKING_READ.test('SELECT id FROM calendars WHERE id = ? FOR UPDATE')).toBe(true);
  });
});
