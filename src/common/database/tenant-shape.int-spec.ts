import type { DataSource } from 'typeorm';
import { openTestDataSource } from '../../../test/support/test-data-source';

/*
 * Vitess-ready on paper (docs/scaling.md): the schema shards by account_id. These lists are the
 * exceptions, each with its reason; the test fails on any table or index that is in none of them,
 * and on an entry that no longer matches the schema (the lists only shrink as the schema is fixed).
 */

/** Tables outside the sharded keyspace. */
const UNSHARDED: Record<string, string> = {
  // The shard key's own table: its `id` is the account_id (primary vindex on id).
  accounts: 'sharded by its id, which is the account_id',
  migrations: 'TypeORM bookkeeping: one copy per shard, run by the release job on each',
  oauth_clients: 'OAuth apps belong to no account: an unsharded (reference) keyspace',
  enterprises: 'an enterprise spans its member accounts: the unsharded keyspace, as OAuth apps',
};

/**
 * Child tables without account_id, each keyed by its parent's id (first column of the primary key
 * or the named column). Before sharding they get an account_id column (a migration adds and
 * backfills it from the parent); until then they follow their parent by a lookup on the parent id.
 */
const CHILDREN: Record<string, string> = {
  appointment_field_values: 'appointment_id',
  appointment_type_addons: 'appointment_type_id',
  appointment_type_calendars: 'appointment_type_id',
  appointment_type_forms: 'appointment_type_id',
  appointment_type_resources: 'appointment_type_id',
  certificate_uses: 'certificate_id',
  coupon_appointment_types: 'coupon_id',
  form_fields: 'form_id',
  product_appointment_types: 'product_id',
};

/**
 * Unique keys without account_id in tenant tables: globally unique tokens and keys, which a shard
 * cannot enforce alone. Each becomes a unique lookup vindex (token → account_id) in Vitess.
 */
const GLOBAL_UNIQUE: Record<string, string> = {
  'calendar_feeds.uq_calendar_feeds_token': 'a feed URL carries only its token',
  'notifications.uq_notifications_dedupe': 'dedupe key made of the outbox id and the kind',
  'oauth_codes.uq_oauth_codes_hash': 'a code arrives without its account',
  'oauth_tokens.uq_oauth_tokens_hash': 'a bearer token arrives without its account',
  'slot_holds.idx_slot_holds_token': 'a hold token arrives with the booking, account known then',
  'webhook_messages.uq_webhook_messages_event': 'one message per event and subscription',
};

/**
 * Tenant tables with no index led by account_id: read by another owned key (a calendar, a
 * subscription, a source, an outbox row), never listed by account; their rows carry account_id
 * for routing only.
 */
const NO_ACCOUNT_INDEX: Record<string, string> = {
  busy_sources: 'read by calendar and by due time (the sync scanner)',
  calendar_feeds: 'keyed by calendar_id, reached by token',
  external_busy_spans: 'read by calendar with the busy time',
  notifications: 'read by appointment and by due time (the worker)',
  outbox: 'read by id and by dispatch state (the relay)',
  webhook_deliveries: 'read by message',
  webhook_messages: 'read by subscription and by due time (the worker)',
};

interface Column {
  table: string;
  column: string;
}
interface IndexColumn {
  table: string;
  index: string;
  column: string;
  seq: number;
  unique: boolean;
}

describe('Schema: sharding by account (Vitess-ready, docs/scaling.md)', () => {
  let dataSource: DataSource;
  let tables: string[];
  let columns: Column[];
  let indexes: IndexColumn[];

  beforeAll(async () => {
    dataSource = await openTestDataSource();
    tables = (
      await dataSource.query<{ name: string }[]>(
        `SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY table_name`,
      )
    ).map((t) => t.name);
    columns = await dataSource.query<Column[]>(
      `SELECT table_name AS \`table\`, column_name AS \`column\` FROM information_schema.columns
        WHERE table_schema = DATABASE()`,
    );
    indexes = (
      await dataSource.query<(Omit<IndexColumn, 'unique'> & { nonUnique: number })[]>(
        `SELECT table_name AS \`table\`, index_name AS \`index\`, column_name AS \`column\`,
                seq_in_index AS seq, non_unique AS nonUnique
           FROM information_schema.statistics WHERE table_schema = DATABASE()`,
      )
    ).map(({ nonUnique, ...rest }) => ({
      ...rest,
      seq: Number(rest.seq),
      unique: !Number(nonUnique),
    }));
  });

  afterAll(() => dataSource.destroy());

  const hasColumn = (table: string, column: string) =>
    columns.some((c) => c.table === table && c.column === column);
  const tenantTables = () => tables.filter((t) => hasColumn(t, 'account_id'));
  const indexColumns = (table: string, index: string) =>
    indexes
      .filter((i) => i.table === table && i.index === index)
      .sort((a, b) => a.seq - b.seq)
      .map((i) => i.column);
  const indexNames = (table: string) => [
    ...new Set(indexes.filter((i) => i.table === table).map((i) => i.index)),
  ];

  it('keys every table by account_id, except the unsharded tables and the listed children', () => {
    const unkeyed = tables.filter((t) => !hasColumn(t, 'account_id'));
    expect(unkeyed.sort()).toEqual(Object.keys({ ...UNSHARDED, ...CHILDREN }).sort());
    for (const [child, parentKey] of Object.entries(CHILDREN))
      expect({ child, parentKey: hasColumn(child, parentKey) }).toEqual({
        child,
        parentKey: true,
      });
  });

  it('gives each tenant table a primary key of its own id or led by account_id', () => {
    const bad = tenantTables()
      .map((t) => ({ table: t, primary: indexColumns(t, 'PRIMARY') }))
      .filter(({ primary }) => !(primary.join() === 'id' || primary[0] === 'account_id'));
    // calendar_feeds is keyed by its calendar (one feed per calendar): a calendar's id routes
    // like any owned id (see docs/scaling.md).
    expect(bad).toEqual([{ table: 'calendar_feeds', primary: ['calendar_id'] }]);
  });

  it('has account_id in every unique key of a tenant table, except the listed global ones', () => {
    const global: string[] = [];
    for (const table of tenantTables())
      for (const index of indexNames(table)) {
        if (index === 'PRIMARY') continue;
        const unique = indexes.some((i) => i.table === table && i.index === index && i.unique);
        if (unique && !indexColumns(table, index).includes('account_id'))
          global.push(`${table}.${index}`);
      }
    expect(global.sort()).toEqual(Object.keys(GLOBAL_UNIQUE).sort());
  });

  it('lists each tenant table by an index led by account_id, except the listed ones', () => {
    const without = tenantTables().filter(
      (table) => !indexNames(table).some((index) => indexColumns(table, index)[0] === 'account_id'),
    );
    expect(without.sort()).toEqual(Object.keys(NO_ACCOUNT_INDEX).sort());
  });
});
