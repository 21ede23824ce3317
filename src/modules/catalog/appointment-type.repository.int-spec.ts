import { type DataSource, IsNull } from 'typeorm';
import { openTestDataSource } from '../../../test/support/test-data-source';
import { AppointmentType } from './appointment-type.entity';
import { AppointmentTypeRepository } from './appointment-type.repository';

/**
 * listWithLinks (one prepared statement) answers what the account's rows and `links` (TypeORM,
 * four queries) answer: the same types in the same order, the same live links in the same order.
 */
describe('AppointmentTypeRepository.listWithLinks (MySQL)', () => {
  let dataSource: DataSource;
  let types: AppointmentTypeRepository;
  // An account of its own (catalog tables have no foreign keys): other tests' rows stay apart.
  const accountId = 800_000 + Math.floor(Math.random() * 100_000);

  const insert = async (sql: string, params: unknown[]): Promise<number> =>
    Number((await dataSource.query<{ insertId: number }>(sql, params)).insertId);
  const type = (
    name: string,
    columns: { active?: number; deleted?: boolean; kind?: string } = {},
  ) =>
    insert(
      `INSERT INTO appointment_types (account_id, name, active, description, duration, price_cents,
         private, kind, class_size, padding_before, image, deleted_at, created_at, updated_at)
       VALUES (?, ?, ?, 'About it', 45, 4000, 1, ?, 8, 5, 'https://img.example/x.png', ?, NOW(3), NOW(3))`,
      [
        accountId,
        name,
        columns.active ?? 1,
        columns.kind ?? 'service',
        columns.deleted ? new Date() : null,
      ],
    );
  const calendar = (deleted = false) =>
    insert(
      `INSERT INTO calendars (account_id, name, description, timezone, hours, overrides, deleted_at, created_at, updated_at)
       VALUES (?, 'C', '', 'UTC', '{}', '{}', ?, NOW(3), NOW(3))`,
      [accountId, deleted ? new Date() : null],
    );
  const addon = (deleted = false) =>
    insert(
      `INSERT INTO addons (account_id, name, deleted_at, created_at, updated_at)
       VALUES (?, 'A', ?, NOW(3), NOW(3))`,
      [accountId, deleted ? new Date() : null],
    );
  const form = (deleted = false) =>
    insert(
      `INSERT INTO forms (account_id, name, description, deleted_at, created_at, updated_at)
       VALUES (?, 'F', '', ?, NOW(3), NOW(3))`,
      [accountId, deleted ? new Date() : null],
    );
  const resource = (deleted = false) =>
    insert(
      `INSERT INTO resources (account_id, name, quantity, deleted_at, created_at, updated_at)
       VALUES (?, 'R', 2, ?, NOW(3), NOW(3))`,
      [accountId, deleted ? new Date() : null],
    );

  beforeAll(async () => {
    dataSource = await openTestDataSource();
    types = new AppointmentTypeRepository(dataSource);
    const [first, second, gone] = [
      await type('First'),
      await type('Second', { active: 0, kind: 'class' }),
      await type('Gone', { deleted: true }),
    ];
    await type('Bare');
    const calendars = [await calendar(), await calendar(), await calendar(true), await calendar()];
    const addons = [await addon(), await addon(true), await addon()];
    const forms = [await form(), await form(), await form(true), await form()];
    const resources = [await resource(), await resource(true), await resource()];
    // Inserted out of order: the lists come ordered (calendars and addons by id, forms by position).
    for (const c of [calendars[3], calendars[2], calendars[0]])
      await dataSource.query(
        'INSERT INTO appointment_type_calendars (appointment_type_id, calendar_id) VALUES (?, ?)',
        [first, c],
      );
    await dataSource.query(
      'INSERT INTO appointment_type_calendars (appointment_type_id, calendar_id) VALUES (?, ?), (?, ?), (?, ?)',
      [second, calendars[1], gone, calendars[0], gone, calendars[1]],
    );
    for (const a of [addons[2], addons[1], addons[0]])
      await dataSource.query(
        'INSERT INTO appointment_type_addons (appointment_type_id, addon_id) VALUES (?, ?)',
        [first, a],
      );
    for (const [position, f] of [
      [1, forms[0]],
      [0, forms[3]],
      [2, forms[2]],
      [0, forms[1]],
    ])
      await dataSource.query(
        'INSERT INTO appointment_type_forms (appointment_type_id, form_id, position) VALUES (?, ?, ?)',
        [first, f, position],
      );
    for (const r of [resources[2], resources[1], resources[0]])
      await dataSource.query(
        'INSERT INTO appointment_type_resources (appointment_type_id, resource_id) VALUES (?, ?)',
        [first, r],
      );
    await dataSource.query(
      'INSERT INTO appointment_type_resources (appointment_type_id, resource_id) VALUES (?, ?)',
      [gone, resources[0]],
    );
  });

  afterAll(async () => {
    const ids = await dataSource.query<{ id: number }[]>(
      'SELECT id FROM appointment_types WHERE account_id = ?',
      [accountId],
    );
    for (const link of [
      'appointment_type_calendars',
      'appointment_type_addons',
      'appointment_type_forms',
      'appointment_type_resources',
    ])
      await dataSource.query(`DELETE FROM ${link} WHERE appointment_type_id IN (?)`, [
        ids.map((r) => r.id),
      ]);
    for (const table of ['appointment_types', 'calendars', 'addons', 'forms', 'resources'])
      await dataSource.query(`DELETE FROM ${table} WHERE account_id = ?`, [accountId]);
    await dataSource.destroy();
  });

  /** What the list answered before: the rows through TypeORM, then `links`. */
  async function throughTypeorm(includeDeleted: boolean) {
    const rows = await dataSource.getRepository(AppointmentType).find({
      where: includeDeleted ? { accountId } : { accountId, deletedAt: IsNull() },
      order: { id: 'ASC' },
    });
    const links = await types.links(rows);
    return rows.map((row) => ({ row, links: links.get(row.id)! }));
  }

  it.each([false, true])(
    'answers the rows and links that TypeORM reads (includeDeleted %s)',
    async (includeDeleted) => {
      const listed = await types.listWithLinks(accountId, includeDeleted);
      const expected = await throughTypeorm(includeDeleted);
      expect(listed).toHaveLength(includeDeleted ? 4 : 3);
      expect(listed.map((t) => t.links)).toEqual(expected.map((t) => t.links));
      expect(listed.map((t) => t.row)).toEqual(
        expected.map(({ row }) => ({
          id: row.id,
          accountId: row.accountId,
          name: row.name,
          active: row.active,
          deletedAt: row.deletedAt,
          description: row.description,
          duration: row.duration,
          priceCents: row.priceCents,
          category: row.category,
          color: row.color,
          private: row.private,
          kind: row.kind,
          classSize: row.classSize,
          paddingBefore: row.paddingBefore,
          paddingAfter: row.paddingAfter,
          image: row.image,
        })),
      );
    },
  );

  it('lists the live links of each type in the owner’s order', async () => {
    const [first, second, bare] = await types.listWithLinks(accountId, false);
    expect(first.links.calendarIDs).toHaveLength(2);
    expect(first.links.calendarIDs).toEqual([...first.links.calendarIDs].sort((a, b) => a - b));
    expect(first.links.addonIDs).toHaveLength(2);
    expect(first.links.formIDs).toHaveLength(3);
    expect(first.links.resourceIDs).toHaveLength(2);
    expect(first.links.resourceIDs).toEqual([...first.links.resourceIDs].sort((a, b) => a - b));
    expect(first.row).toMatchObject({ active: true, private: true, classSize: 8 });
    expect(second.row).toMatchObject({ active: false, kind: 'class' });
    expect(second.links).toEqual({
      calendarIDs: [expect.any(Number)],
      addonIDs: [],
      formIDs: [],
      resourceIDs: [],
    });
    expect(bare.links).toEqual({ calendarIDs: [], addonIDs: [], formIDs: [], resourceIDs: [] });
  });

  it('answers nothing for an account without types', async () => {
    await expect(types.listWithLinks(accountId + 1, true)).resolves.toEqual([]);
  });
});
