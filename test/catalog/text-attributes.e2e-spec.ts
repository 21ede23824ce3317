import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/** Characters no one-line attribute takes; `all`: no multi-line attribute either. */
const CONTROLS: [string, string, 'all' | 'one-line'][] = [
  ['NUL', '\u0000', 'all'],
  ['CR/LF', '\r\n', 'one-line'],
  ['a line feed', '\n', 'one-line'],
  ['a tab', '\t', 'one-line'],
  ['ESC', '\u001B', 'all'],
  ['DEL', '\u007F', 'all'],
  ['a C1 control (NEL)', '\u0085', 'all'],
  ['a right-to-left override', '\u202E', 'all'],
  ['a pop directional isolate', '\u2069', 'all'],
  ['a line separator', '\u2028', 'all'],
];

type Kind = 'one-line' | 'multi-line' | 'email';

/** One text attribute of a write endpoint: where it goes in a body, and what it is. */
interface TextAttribute {
  endpoint: string;
  method: 'POST' | 'PUT';
  path: () => string;
  /** A body the endpoint takes, with `value` at the attribute. */
  body: (value: string) => Record<string, unknown>;
  /** How errors name it: `name`, `fields.0.name`. */
  shown: string;
  code: string;
  kind: Kind;
}

/**
 * Issue 20 on the catalog: every one-line text attribute (names, categories, locations, options,
 * e-mails) refuses control and bidi characters, every multi-line one (descriptions) keeps its line
 * breaks and tabs but refuses the rest, on create and on update. A refused request stores nothing.
 */
describe('Catalog: text attributes refuse control and bidi characters (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let account: TestAccount;
  let api: ApiClient;
  const ids: Record<string, number> = {};
  let day = 0;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    account = await createAccount(app);
    api = apiClient(app, account);
    const made = async (path: string, body: Record<string, unknown>): Promise<number> => {
      const res = await api.post(path, body);
      if (res.status !== 200) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
      return (res.body as { id: number }).id;
    };
    ids.calendar = await createCalendar(api);
    ids.type = await createAppointmentType(api, { calendarIDs: [ids.calendar] });
    ids.classType = await createAppointmentType(api, {
      name: 'Yoga',
      type: 'class',
      classSize: 5,
      calendarIDs: [ids.calendar],
    });
    ids.addon = await made('/appointment-addons', { name: 'Extra' });
    ids.label = await made('/labels', { name: 'VIP' });
    ids.form = await made('/forms', { name: 'Intake' });
    ids.product = await made('/products', { name: 'Gift', price: '10.00', type: 'gift' });
    ids.coupon = await made('/coupons', {
      name: 'Spring',
      discountType: 'percentage',
      discountAmount: 10,
    });
  });

  afterAll(() => app.close());

  const field = (name: string, options?: string[]) => ({
    fields: [{ name, type: options ? 'dropdown' : 'textbox', ...(options ? { options } : {}) }],
  });

  const attributes: TextAttribute[] = [
    ...(['POST', 'PUT'] as const).flatMap((method): TextAttribute[] => {
      const on = (resource: string, id: string) => () =>
        method === 'POST' ? `/${resource}` : `/${resource}/${ids[id]}`;
      const named = (resource: string, id: string, extra: Record<string, unknown> = {}) => ({
        endpoint: `${method} /${resource}`,
        method,
        path: on(resource, id),
        body: (name: string) => ({ ...extra, name }),
        shown: 'name',
        code: 'invalid_name',
        kind: 'one-line' as Kind,
      });
      const other = (
        resource: string,
        id: string,
        attribute: string,
        kind: Kind,
        extra: Record<string, unknown> = {},
      ) => ({
        endpoint: `${method} /${resource}`,
        method,
        path: on(resource, id),
        body: (value: string) => ({ name: 'X', ...extra, [attribute]: value }),
        shown: attribute,
        code: `invalid_${attribute.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`,
        kind,
      });
      const product = { price: '10.00', type: 'gift' };
      const coupon = { discountType: 'percentage', discountAmount: 10 };
      return [
        named('calendars', 'calendar'),
        other('calendars', 'calendar', 'location', 'one-line'),
        other('calendars', 'calendar', 'email', 'email'),
        other('calendars', 'calendar', 'replyTo', 'email'),
        other('calendars', 'calendar', 'description', 'multi-line'),
        named('appointment-types', 'type', { duration: 30 }),
        other('appointment-types', 'type', 'category', 'one-line', { duration: 30 }),
        other('appointment-types', 'type', 'description', 'multi-line', { duration: 30 }),
        named('appointment-addons', 'addon'),
        named('labels', 'label'),
        named('forms', 'form'),
        other('forms', 'form', 'description', 'multi-line'),
        {
          endpoint: `${method} /forms (a field's name)`,
          method,
          path: on('forms', 'form'),
          body: (value) => ({ name: 'Intake', ...field(value) }),
          shown: 'fields.0.name',
          code: 'invalid_fields',
          kind: 'one-line',
        },
        {
          endpoint: `${method} /forms (a field's option)`,
          method,
          path: on('forms', 'form'),
          body: (value) => ({ name: 'Intake', ...field('Size', ['Small', value]) }),
          shown: 'fields.0.options',
          code: 'invalid_fields',
          kind: 'one-line',
        },
        ...(method === 'POST'
          ? [
              named('products', 'product', product),
              other('products', 'product', 'description', 'multi-line', product),
              named('coupons', 'coupon', coupon),
            ]
          : [
              named('products', 'product'),
              other('products', 'product', 'description', 'multi-line'),
              named('coupons', 'coupon'),
            ]),
      ];
    }),
    {
      endpoint: 'POST /classes',
      method: 'POST',
      path: () => '/classes',
      body: (name) => ({
        appointmentTypeID: ids.classType,
        calendarID: ids.calendar,
        datetime: `2030-05-${String(++day).padStart(2, '0')}T10:00`,
        name,
      }),
      shown: 'name',
      code: 'invalid_name',
      kind: 'one-line',
    },
  ];

  /** Every table's checksum: a refused request changes none. */
  async function snapshot(): Promise<string> {
    const tables = (
      await db.query<{ name: string }[]>(
        `SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = DATABASE() AND table_name NOT IN ('outbox', 'migrations')`,
      )
    ).map((t) => `\`${t.name}\``);
    return JSON.stringify(await db.query(`CHECKSUM TABLE ${tables.join(', ')}`));
  }

  const send = (a: TextAttribute, value: string) =>
    a.method === 'POST' ? api.post(a.path(), a.body(value)) : api.put(a.path(), a.body(value));

  /** A valid value of the attribute with `chars` inside. */
  const around = (kind: Kind, chars: string) =>
    kind === 'email' ? `ada${chars}@example.test` : `Ada${chars}Lovelace`;

  it.each(attributes.map((a) => [a.endpoint, a.shown, a] as const))(
    '%s: %s refuses what it must, nothing stored',
    async (_endpoint, _shown, a) => {
      const before = await snapshot();
      for (const [what, chars, rule] of CONTROLS) {
        if (a.kind === 'multi-line' && rule !== 'all') continue;
        const res = await send(a, around(a.kind, chars));
        expect({ what, status: res.status, body: res.body }).toEqual({
          what,
          ...apiError(400, a.code, `Invalid "${a.shown}" attribute value.`),
        });
      }
      expect(await snapshot()).toBe(before);
    },
  );

  it.each(attributes.map((a) => [a.endpoint, a.shown, a] as const))(
    '%s: %s takes text of every script (and line breaks where multi-line)',
    async (_endpoint, _shown, a) => {
      const values =
        a.kind === 'email'
          ? ['zoë@example.test', "o'brien-smith@example.test"]
          : a.kind === 'multi-line'
            ? ['First line.\r\nSecond line.\n\tIndented — Zoë 王 😀']
            : ['Zoë O’Brien-Smith', '王小明 😀', 'שרה\u200F'];
      for (const value of values) {
        const res = await send(a, value);
        expect({ value, status: res.status }).toEqual({ value, status: 200 });
      }
    },
  );
});
