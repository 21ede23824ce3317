import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * Vitess-ready on paper (docs/scaling.md): every SQL statement of src/ is scoped by account, so
 * that it routes to the one shard of its account. A statement naming account_id (accountId in a
 * query builder) is scoped. The others are listed below, each with how it routes:
 *
 * - OWNED: keyed by the id of a row the caller already found within the account (a calendar, a
 *   busy source, an appointment, a subscription…): in Vitess a lookup vindex on that id gives its
 *   account's shard.
 * - SWEEP: the worker's cross-account passes (expired holds and codes, due webhooks, the outbox
 *   relay, metrics): meant to visit every shard (a scatter query, or one pass per shard).
 * - SERVER: the server itself (version, advisory locks, migrations): run on each shard.
 * - BUILDER: a helper that builds statements for tables its callers name and scope.
 *
 * The test fails on an unscoped statement that is not listed, and on a listed one that is gone.
 */
const OWNED = 'owned id (lookup vindex)';
const SWEEP = 'worker sweep over every shard';
const SERVER = 'server-level, on each shard';
const BUILDER = "helper: its callers' scope";

const LISTED: [file: string, start: string, routing: string][] = [
  ['common/database/database.cli.ts', 'SELECT name FROM migrations', SERVER],
  ['common/database/insert-rows.ts', 'INSERT INTO', BUILDER],
  ['common/database/leased-rows.ts', 'UPDATE ${this.options.table}', BUILDER],
  ['common/database/row-locks.ts', 'UPDATE ${table} SET lock_version', BUILDER],
  ['common/database/row-locks.ts', 'SELECT id FROM ${table}', BUILDER],
  ['common/database/leased-rows.ts', 'SELECT id FROM ${this.options.table}', BUILDER],
  ['common/database/leased-rows.ts', 'DELETE FROM ${this.options.table}', BUILDER],
  ['common/database/leased-rows.ts', 'SELECT id, leased_until FROM ${this.options.table}', BUILDER],
  ['common/database/schema.ts', 'SELECT VERSION()', SERVER],
  ['common/database/schema.ts', 'SELECT GET_LOCK', SERVER],
  ['common/database/schema.ts', 'SELECT RELEASE_LOCK', SERVER],
  ['common/outbox/outbox.repository.ts', 'SELECT (SELECT created_at FROM outbox', SWEEP],
  ['common/outbox/outbox.repository.ts', 'SELECT id FROM outbox WHERE id IN', OWNED],
  ['common/outbox/outbox.repository.ts', 'UPDATE outbox SET processed_at', OWNED],
  ['common/outbox/outbox.repository.ts', 'UPDATE outbox SET dispatched_at', OWNED],
  [
    'modules/appointments/appointment-view.repository.ts',
    'SELECT id, name, category, uses_resources',
    OWNED,
  ],
  [
    'modules/appointments/appointment-view.repository.ts',
    'SELECT id, name, timezone, location FROM',
    OWNED,
  ],
  [
    'modules/appointments/appointment-view.repository.ts',
    'SELECT v.appointment_id AS appointmentId',
    OWNED,
  ],
  [
    'modules/availability/booking-limits.repository.ts',
    'SELECT (SELECT COUNT(*) FROM appointments',
    OWNED,
  ],
  [
    'modules/availability/booking-limits.repository.ts',
    'SELECT starts_at AS startsAt FROM appointments',
    OWNED,
  ],
  [
    'modules/availability/busy-time.repository.ts',
    'SELECT c.id ${BUSY_COLUMNS} FROM calendars',
    OWNED,
  ],
  ['modules/availability/busy-time.repository.ts', 'SELECT class_id AS classId', OWNED],
  ['modules/availability/calendar-members.repository.ts', 'DELETE FROM slot_hold_members', SWEEP],
  [
    'modules/availability/calendar-locks.repository.ts',
    'SELECT c.id, c.busy_kinds AS busyKinds ${busyColumnsOf(kinds)}',
    OWNED,
  ],
  [
    'modules/availability/calendar-locks.repository.ts',
    'SELECT c.id, c.busy_kinds AS busyKinds, ${resources.lockColumn}',
    OWNED,
  ],
  ['modules/availability/slot-context.repository.ts', 'SELECT ${TYPE_COLUMNS}', OWNED],

  ['modules/availability/slot-context.repository.ts', 'SELECT addon_id AS addonId', OWNED],
  ['modules/availability/slot-hold.repository.ts', 'DELETE FROM slot_holds WHERE id', OWNED],
  ['modules/calendar-sync/busy-source.repository.ts', 'SELECT state, COUNT(*)', SWEEP],
  ['modules/calendar-sync/busy-source.repository.ts', 'UPDATE busy_sources SET', OWNED],
  ['modules/calendar-sync/busy-source.repository.ts', 'DELETE FROM busy_sources WHERE id', OWNED],
  [
    'modules/calendar-sync/busy-source.repository.ts',
    'DELETE FROM external_busy_spans WHERE source_id',
    OWNED,
  ],
  ['modules/availability/resource-usage.repository.ts', 'SELECT ${columns}', BUILDER],
  ['modules/calendar-sync/calendar-feed.repository.ts', 'SELECT id, starts_at, ends_at', OWNED],
  ['modules/holds/slot-hold.repository.ts', 'DELETE FROM slot_holds WHERE expires_at', SWEEP],
  [
    'modules/notifications/notification.repository.ts',
    'SELECT id, appointment_id AS appointmentId, outbox_id',
    OWNED,
  ],
  ['modules/notifications/notification.repository.ts', 'DELETE FROM notifications WHERE id', OWNED],
  ['modules/oauth/oauth-token.repository.ts', 'UPDATE oauth_tokens SET revoked_at', OWNED],
  ['modules/oauth/oauth-code.repository.ts', 'DELETE FROM oauth_codes WHERE expires_at', SWEEP],
  ['modules/oauth/oauth-code.repository.ts', 'UPDATE oauth_codes SET consumed_at', OWNED],
  ['modules/webhooks/webhook-subscription.repository.ts', 'SELECT status, failing_since', OWNED],
  [
    'modules/webhooks/webhook-subscription.repository.ts',
    'UPDATE webhook_subscriptions SET',
    OWNED,
  ],
  [
    'modules/webhooks/webhook-message.repository.ts',
    'SELECT id, attempts FROM webhook_messages',
    SWEEP,
  ],
  [
    'modules/webhooks/webhook-message.repository.ts',
    'UPDATE webhook_messages SET next_attempt_at',
    OWNED,
  ],
  ['modules/holds/slot-hold.repository.ts', 'UPDATE accounts SET hold_claims', OWNED],
];

const SRC = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sourceFiles(path);
    return /\.ts$/.test(name) && !/\.(spec|int-spec)\.ts$/.test(name) ? [path] : [];
  });
}

/** Every SQL statement written as a string in `text` (comments left out), on one line. */
function statementsIn(text: string): string[] {
  const code = text.replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
  const found: string[] = [];
  for (const match of code.matchAll(
    /([`'])\s*((?:SELECT|UPDATE|DELETE\s+FROM|INSERT\s+INTO)\b[\s\S]*?)\1/g,
  ))
    found.push(match[2].split(/\s+/).join(' '));
  return found;
}

const scoped = (statement: string) => /\baccount_?id\b/i.test(statement);

describe('Every SQL statement of src/ is scoped by account (docs/scaling.md)', () => {
  const statements = sourceFiles(SRC).flatMap((path) =>
    statementsIn(readFileSync(path, 'utf8')).map((sql) => ({
      file: relative(SRC, path),
      sql,
    })),
  );

  it('finds the statements (the scan works)', () => {
    expect(statements.length).toBeGreaterThan(60);
    expect(statements.filter((s) => scoped(s.sql)).length).toBeGreaterThan(10);
  });

  it('names account_id in each, or lists it with how it routes', () => {
    const unlisted = statements
      .filter((s) => !scoped(s.sql))
      .filter((s) => !LISTED.some(([file, start]) => file === s.file && s.sql.startsWith(start)))
      .map((s) => `${s.file}: ${s.sql}`);
    expect(unlisted).toEqual([]);
  });

  it('lists nothing that is gone or that names account_id', () => {
    const stale = LISTED.filter(
      ([file, start]) =>
        !statements.some((s) => s.file === file && s.sql.startsWith(start) && !scoped(s.sql)),
    );
    expect(stale).toEqual([]);
  });

  it('tells scoped statements from unscoped ones', () => {
    expect(
      statementsIn(
        "q('SELECT id FROM calendars WHERE account_id = ?'); q(`UPDATE x SET a = 1\n WHERE id = ?`);\n// 'SELECT nothing'",
      ).map((sql) => [sql, scoped(sql)]),
    ).toEqual([
      ['SELECT id FROM calendars WHERE account_id = ?', true],
      ['UPDATE x SET a = 1 WHERE id = ?', false],
    ]);
  });
});
