import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource, IsNull } from 'typeorm';
import { AppointmentType, AppointmentTypeForm } from '../../src/modules/catalog';
import { FormField, FormRepository } from '../../src/modules/forms';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

interface FieldView {
  id: number;
  name: string;
  type: string;
  options: string[] | null;
  required: boolean;
  lines: number | null;
}

interface FormView {
  id: number;
  name: string;
  description: string;
  hidden: boolean;
  appointmentTypeIDs: number[];
  fields: FieldView[];
}

describe('Forms: /forms (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let account: TestAccount;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    account = await createAccount(app);
    api = apiClient(app, account);
  });

  afterAll(() => app.close());

  async function createForm(body: object, client = api): Promise<FormView> {
    const res = await client.post('/forms', body);
    expect(res.status).toBe(200);
    return res.body as FormView;
  }

  /** An appointment type row, as /appointment-types would write it (that endpoint is not used here). */
  async function insertType(accountId: number, deletedAt: Date | null = null): Promise<number> {
    const now = new Date();
    const type = await db.getRepository(AppointmentType).save({
      accountId,
      name: 'Consultation',
      description: '',
      duration: 30,
      kind: 'service',
      createdAt: now,
      updatedAt: now,
      deletedAt,
    });
    return type.id;
  }

  async function link(appointmentTypeId: number, formId: number, position = 0): Promise<void> {
    await db.getRepository(AppointmentTypeForm).insert({ appointmentTypeId, formId, position });
  }

  it('creates, reads, updates and deletes a form in the reference shape', async () => {
    const created = await api.post('/forms', {
      name: ' Intake ',
      description: ' Before your first visit ',
      hidden: false,
      fields: [
        { name: ' Full name ', type: 'textbox', required: true },
        { name: 'Symptoms', type: 'textarea' },
        { name: 'Notes', type: 'textarea', lines: 8 },
        { name: 'Size', type: 'dropdown', options: [' Small ', 'Large'] },
        { name: 'Agree to terms', type: 'checkbox', required: true },
        { name: 'Days', type: 'checkboxlist', options: ['Mon', 'Tue', 'Wed'] },
        { name: 'First visit?', type: 'yesno' },
        { name: 'Referral letter', type: 'file' },
        { name: 'Home address', type: 'address' },
      ],
    });
    expect(created.status).toBe(200);
    const form = created.body as FormView;
    const ids = form.fields.map((f) => f.id);
    expect(new Set(ids).size).toBe(9);
    const field = (i: number, rest: Omit<FieldView, 'id'>) => ({ id: ids[i], ...rest });
    const expected: FormView = {
      id: expect.any(Number),
      name: 'Intake',
      description: 'Before your first visit',
      hidden: false,
      appointmentTypeIDs: [],
      fields: [
        field(0, {
          name: 'Full name',
          type: 'textbox',
          options: null,
          required: true,
          lines: null,
        }),
        field(1, { name: 'Symptoms', type: 'textarea', options: null, required: false, lines: 3 }),
        field(2, { name: 'Notes', type: 'textarea', options: null, required: false, lines: 8 }),
        field(3, {
          name: 'Size',
          type: 'dropdown',
          options: ['Small', 'Large'],
          required: false,
          lines: null,
        }),
        field(4, {
          name: 'Agree to terms',
          type: 'checkbox',
          options: null,
          required: true,
          lines: null,
        }),
        field(5, {
          name: 'Days',
          type: 'checkboxlist',
          options: ['Mon', 'Tue', 'Wed'],
          required: false,
          lines: null,
        }),
        field(6, {
          name: 'First visit?',
          type: 'yesno',
          options: null,
          required: false,
          lines: null,
        }),
        field(7, {
          name: 'Referral letter',
          type: 'file',
          options: null,
          required: false,
          lines: null,
        }),
        field(8, {
          name: 'Home address',
          type: 'address',
          options: null,
          required: false,
          lines: null,
        }),
      ],
    };
    expect(form).toEqual(expected);

    expect(await api.get(`/forms/${form.id}`)).toMatchObject({ status: 200, body: form });
    const listed = (await api.get('/forms')).body as FormView[];
    expect(listed.find((f) => f.id === form.id)).toEqual(form);

    const updated = await api.put(`/forms/${form.id}`, { hidden: true, description: '' });
    expect(updated).toMatchObject({ status: 200 });
    expect(updated.body).toEqual({ ...form, hidden: true, description: '' });

    expect(await api.delete(`/forms/${form.id}`)).toMatchObject({ status: 204, body: undefined });
    expect(await api.get(`/forms/${form.id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(((await api.get('/forms')).body as FormView[]).map((f) => f.id)).not.toContain(form.id);
    expect(await api.put(`/forms/${form.id}`, { name: 'Back' })).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
  });

  it('gives a new form its defaults', async () => {
    const form = await createForm({ name: 'Bare' });
    expect(form).toEqual({
      id: expect.any(Number),
      name: 'Bare',
      description: '',
      hidden: false,
      appointmentTypeIDs: [],
      fields: [],
    });
  });

  it("lists the account's live appointment types linked to a form, ascending", async () => {
    const form = await createForm({ name: 'Linked' });
    const first = await insertType(account.id);
    const second = await insertType(account.id);
    const deleted = await insertType(account.id, new Date());
    const stranger = await createAccount(app);
    const foreign = await insertType(stranger.id);
    // Linked in another order than the ids: the list is by id.
    await link(second, form.id, 0);
    await link(deleted, form.id, 1);
    await link(foreign, form.id, 2);
    await link(first, form.id, 3);

    expect((await api.get(`/forms/${form.id}`)).body).toMatchObject({
      appointmentTypeIDs: [first, second],
    });
    const listed = (await api.get('/forms')).body as FormView[];
    expect(listed.find((f) => f.id === form.id)?.appointmentTypeIDs).toEqual([first, second]);

    await db.getRepository(AppointmentType).update({ id: first }, { deletedAt: new Date() });
    expect((await api.get(`/forms/${form.id}`)).body).toMatchObject({
      appointmentTypeIDs: [second],
    });
    // An update answers with the same view.
    expect((await api.put(`/forms/${form.id}`, { name: 'Still linked' })).body).toMatchObject({
      name: 'Still linked',
      appointmentTypeIDs: [second],
    });
  });

  it('keeps the id of a field across an update; a dropped field is soft-deleted', async () => {
    const form = await createForm({
      name: 'Evolving',
      fields: [
        { name: 'A', type: 'textbox' },
        { name: 'B', type: 'textbox' },
        { name: 'C', type: 'textbox' },
      ],
    });
    const [a, b, c] = form.fields.map((f) => f.id);

    const res = await api.put(`/forms/${form.id}`, {
      fields: [
        { name: 'New first', type: 'yesno', required: true },
        { id: b, name: 'B as a list', type: 'dropdown', options: ['x', 'y'] },
      ],
    });
    expect(res.status).toBe(200);
    const updated = res.body as FormView;
    expect(updated.fields).toEqual([
      {
        id: expect.any(Number),
        name: 'New first',
        type: 'yesno',
        options: null,
        required: true,
        lines: null,
      },
      {
        id: b,
        name: 'B as a list',
        type: 'dropdown',
        options: ['x', 'y'],
        required: false,
        lines: null,
      },
    ]);
    const added = updated.fields[0].id;
    expect([a, b, c]).not.toContain(added);
    expect((await api.get(`/forms/${form.id}`)).body).toEqual(updated);

    // The dropped fields stay (answers keep their question), marked deleted.
    const rows = await db.getRepository(FormField).find({ where: { formId: form.id } });
    const deletedAt = new Map(rows.map((row) => [row.id, row.deletedAt]));
    expect(deletedAt.get(a)).toBeInstanceOf(Date);
    expect(deletedAt.get(c)).toBeInstanceOf(Date);
    expect(deletedAt.get(b)).toBeNull();
    expect(deletedAt.get(added)).toBeNull();

    // A deleted field cannot be brought back by its id.
    expect(
      await api.put(`/forms/${form.id}`, { fields: [{ id: a, name: 'A', type: 'textbox' }] }),
    ).toMatchObject(
      apiError(400, 'invalid_fields', `The field "${a}" does not exist on this form.`),
    );
  });

  it('takes back the fields it shows, unchanged', async () => {
    const form = await createForm({
      name: 'Round trip',
      fields: [
        { name: 'Note', type: 'textbox' },
        { name: 'Story', type: 'textarea', lines: 5 },
        { name: 'Pick', type: 'checkboxlist', options: ['A', 'B'] },
      ],
    });
    const res = await api.put(`/forms/${form.id}`, { fields: form.fields });
    expect(res).toMatchObject({ status: 200, body: form });
  });

  it('applies concurrent updates of one form one after the other', async () => {
    const form = await createForm({ name: 'Storm', fields: [{ name: 'Start', type: 'textbox' }] });
    const writers = Array.from({ length: 8 }, (_, i) => i);
    const responses = await Promise.all(
      writers.map((i) =>
        api.put(`/forms/${form.id}`, {
          fields: [
            { name: `W${i} a`, type: 'textbox' },
            { name: `W${i} b`, type: 'textbox' },
          ],
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(writers.map(() => 200));
    // Each update replaced the whole list it found: one writer's two fields are left, nothing more.
    const live = await db
      .getRepository(FormField)
      .find({ where: { formId: form.id, deletedAt: IsNull() }, order: { position: 'ASC' } });
    expect(live).toHaveLength(2);
    const writer = live[0].name.split(' ')[0];
    expect(live.map((f) => f.name)).toEqual([`${writer} a`, `${writer} b`]);
  });

  it('keeps the fields when an update leaves them out, and drops them all for []', async () => {
    const form = await createForm({ name: 'Kept', fields: [{ name: 'Q', type: 'textbox' }] });
    expect((await api.put(`/forms/${form.id}`, { name: 'Renamed' })).body).toEqual({
      ...form,
      name: 'Renamed',
    });
    expect((await api.put(`/forms/${form.id}`)).body).toEqual({ ...form, name: 'Renamed' });
    expect((await api.put(`/forms/${form.id}`, { fields: [] })).body).toEqual({
      ...form,
      name: 'Renamed',
      fields: [],
    });
  });

  describe('refuses an update whose fields name ids the form does not have', () => {
    it.each<
      [string, (own: number[], other: number) => object[], (own: number[], other: number) => string]
    >([
      [
        "another form's field",
        (_own, other) => [{ id: other, name: 'Q', type: 'textbox' }],
        (_own, other) => `The field "${other}" does not exist on this form.`,
      ],
      [
        'an id that exists nowhere',
        () => [{ id: 2_000_000_000, name: 'Q', type: 'textbox' }],
        () => 'The field "2000000000" does not exist on this form.',
      ],
      [
        'the same field twice',
        (own) => [
          { id: own[0], name: 'Q', type: 'textbox' },
          { id: own[0], name: 'Q again', type: 'textbox' },
        ],
        (own) => `The field "${own[0]}" is given more than once.`,
      ],
    ])('%s', async (_case, fields, message) => {
      const form = await createForm({
        name: 'Strict',
        fields: [
          { name: 'One', type: 'textbox' },
          { name: 'Two', type: 'textbox' },
        ],
      });
      const other = await createForm({ name: 'Other', fields: [{ name: 'X', type: 'textbox' }] });
      const own = form.fields.map((f) => f.id);
      expect(
        await api.put(`/forms/${form.id}`, { fields: fields(own, other.fields[0].id) }),
      ).toMatchObject(apiError(400, 'invalid_fields', message(own, other.fields[0].id)));
      expect((await api.get(`/forms/${form.id}`)).body).toEqual(form);
    });
  });

  it('writes nothing of a refused update', async () => {
    const form = await createForm({ name: 'Untouched', fields: [{ name: 'Q', type: 'textbox' }] });
    const res = await api.put(`/forms/${form.id}`, {
      name: 'Touched',
      fields: [
        { name: 'New', type: 'textbox' },
        { id: form.fields[0].id, name: 'Q', type: 'textbox' },
        { name: 'Bad', type: 'dropdown' },
      ],
    });
    expect(res).toMatchObject(
      apiError(
        400,
        'invalid_fields',
        'Attribute "fields.2.options" is required for a dropdown field.',
      ),
    );
    expect((await api.get(`/forms/${form.id}`)).body).toEqual(form);
    expect(await db.getRepository(FormField).countBy({ formId: form.id })).toBe(1);
  });

  it('creates nothing when a new form is refused', async () => {
    const before = ((await api.get('/forms')).body as FormView[]).length;
    expect(
      await api.post('/forms', {
        name: 'Never',
        fields: [
          { name: 'Q', type: 'textbox' },
          { id: 5, name: 'Old', type: 'textbox' },
        ],
      }),
    ).toMatchObject(apiError(400, 'invalid_fields', 'The field "5" does not exist on this form.'));
    expect(((await api.get('/forms')).body as FormView[]).length).toBe(before);
  });

  const textbox = { name: 'Q', type: 'textbox' };
  const invalidFields = (message: string) => ['invalid_fields', message] as const;

  it.each<[object, string, string]>([
    [{}, 'required_name', 'Attribute "name" is required.'],
    [{ name: '   ' }, 'required_name', 'Attribute "name" is required.'],
    [{ name: 42 }, 'invalid_name', 'Invalid "name" attribute value.'],
    [{ name: 'x'.repeat(256) }, 'invalid_name', 'Invalid "name" attribute value.'],
    [
      { name: 'F', description: 'x'.repeat(4001) },
      'invalid_description',
      'Invalid "description" attribute value.',
    ],
    [
      { name: 'F', description: null },
      'invalid_description',
      'Invalid "description" attribute value.',
    ],
    [{ name: 'F', hidden: 'yes' }, 'invalid_hidden', 'Invalid "hidden" attribute value.'],
    [{ name: 'F', fields: textbox }, ...invalidFields('Invalid "fields" attribute value.')],
    [{ name: 'F', fields: ['Q'] }, ...invalidFields('Invalid "fields.0" attribute value.')],
    [{ name: 'F', fields: [null] }, ...invalidFields('Invalid "fields.0" attribute value.')],
    [
      { name: 'F', fields: Array.from({ length: 101 }, () => textbox) },
      ...invalidFields('A form has at most 100 fields.'),
    ],
    [
      { name: 'F', fields: [{ name: 'Q', type: 'radio' }] },
      ...invalidFields('Invalid "fields.0.type" attribute value.'),
    ],
    [
      { name: 'F', fields: [{ type: 'textbox' }] },
      'required_fields',
      'Attribute "fields.0.name" is required.',
    ],
    [
      { name: 'F', fields: [{ name: 'Q' }] },
      'required_fields',
      'Attribute "fields.0.type" is required.',
    ],
    [
      { name: 'F', fields: [textbox, { name: 'x'.repeat(256), type: 'textbox' }] },
      ...invalidFields('Invalid "fields.1.name" attribute value.'),
    ],
    [
      { name: 'F', fields: [{ ...textbox, required: 'yes' }] },
      ...invalidFields('Invalid "fields.0.required" attribute value.'),
    ],
    [
      { name: 'F', fields: [{ ...textbox, id: 'abc' }] },
      ...invalidFields('Invalid "fields.0.id" attribute value.'),
    ],
    [
      { name: 'F', fields: [textbox, { name: 'Size', type: 'dropdown' }] },
      ...invalidFields('Attribute "fields.1.options" is required for a dropdown field.'),
    ],
    [
      { name: 'F', fields: [{ name: 'Days', type: 'checkboxlist', options: null }] },
      ...invalidFields('Attribute "fields.0.options" is required for a checkboxlist field.'),
    ],
    [
      { name: 'F', fields: [{ ...textbox, options: ['A'] }] },
      ...invalidFields(
        'Attribute "fields.0.options" is only for dropdown and checkboxlist fields.',
      ),
    ],
    ...[
      [],
      ['A', 'A'],
      ['A', ' A '],
      ['A', ''],
      ['A', '  '],
      ['A', 3],
      'A',
      ['x'.repeat(256)],
      Array.from({ length: 101 }, (_, i) => `Option ${i}`),
    ].map((options): [object, string, string] => [
      { name: 'F', fields: [{ name: 'Size', type: 'dropdown', options }] },
      ...invalidFields('Invalid "fields.0.options" attribute value.'),
    ]),
    [
      {
        name: 'F',
        fields: [{ name: 'Colors', type: 'checkboxlist', options: ['Red, Blue', 'Green'] }],
      },
      ...invalidFields(
        'Option "Red, Blue" of "fields.0" cannot contain ", ": it separates the options chosen in a checkboxlist.',
      ),
    ],
    ...[0, 21, 2.5, '3'].map((lines): [object, string, string] => [
      { name: 'F', fields: [{ name: 'Story', type: 'textarea', lines }] },
      ...invalidFields('Invalid "fields.0.lines" attribute value.'),
    ]),
    [
      { name: 'F', fields: [{ ...textbox, lines: 2 }] },
      ...invalidFields('Attribute "fields.0.lines" is only for textarea fields.'),
    ],
  ])('refuses to create %j: %s', async (body, error, message) => {
    expect(await api.post('/forms', body)).toMatchObject(apiError(400, error, message));
  });

  // Each bound on its own: 100 fields of 100 long options would outgrow the 1 MB body limit.
  it('accepts the largest form of each kind', async () => {
    const fields = Array.from({ length: 100 }, (_, i) => ({ name: `Q${i}`, type: 'textbox' }));
    const many = await createForm({ name: 'x'.repeat(255), description: 'd'.repeat(4000), fields });
    expect(many.fields.map((f) => f.name)).toEqual(fields.map((f) => f.name));

    const options = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(255, '.'));
    const long = await createForm({
      name: 'Long options',
      fields: [{ name: 'y'.repeat(255), type: 'checkboxlist', options }],
    });
    expect(long.fields[0]).toMatchObject({ name: 'y'.repeat(255), options });
  });

  it.each<[object, string, string]>([
    [{ name: '' }, 'invalid_name', 'Attribute "name" cannot be cleared.'],
    [{ name: null }, 'invalid_name', 'Invalid "name" attribute value.'],
    [{ hidden: 1 }, 'invalid_hidden', 'Invalid "hidden" attribute value.'],
    [{ fields: null }, 'invalid_fields', 'Invalid "fields" attribute value.'],
    [
      { fields: [{ name: 'Q', type: 'address', options: ['A'] }] },
      'invalid_fields',
      'Attribute "fields.0.options" is only for dropdown and checkboxlist fields.',
    ],
  ])('refuses to update with %j: %s', async (body, error, message) => {
    const form = await createForm({ name: 'VIP', fields: [textbox] });
    expect(await api.put(`/forms/${form.id}`, body)).toMatchObject(apiError(400, error, message));
    expect((await api.get(`/forms/${form.id}`)).body).toEqual(form);
  });

  it("keeps another account's forms from this one", async () => {
    const stranger = apiClient(app, await createAccount(app));
    const theirs = await createForm({ name: 'Theirs', fields: [textbox] }, stranger);
    const forbidden = apiError(403, 'forbidden', 'Forbidden');
    expect(await api.get(`/forms/${theirs.id}`)).toMatchObject(forbidden);
    expect(await api.put(`/forms/${theirs.id}`, { name: 'Mine' })).toMatchObject(forbidden);
    expect(await api.delete(`/forms/${theirs.id}`)).toMatchObject(forbidden);
    expect(((await api.get('/forms')).body as FormView[]).map((f) => f.id)).not.toContain(
      theirs.id,
    );
    expect((await stranger.get(`/forms/${theirs.id}`)).body).toEqual(theirs);
  });

  it('gives booking the fields of a type: forms in the order linked, then fields by position', async () => {
    const owner = await createAccount(app);
    const client = apiClient(app, owner);
    const typeId = await insertType(owner.id);
    const general = await createForm(
      {
        name: 'General',
        fields: [
          { name: 'Name', type: 'textbox', required: true },
          { name: 'Gone', type: 'textbox' },
          { name: 'Size', type: 'dropdown', options: ['S', 'M'] },
        ],
      },
      client,
    );
    const staff = await createForm(
      { name: 'Staff only', hidden: true, fields: [{ name: 'Memo', type: 'textarea' }] },
      client,
    );
    const removed = await createForm(
      { name: 'Removed', fields: [{ name: 'Old', type: 'yesno' }] },
      client,
    );
    const unlinked = await createForm({ name: 'Unlinked', fields: [textbox] }, client);
    await link(typeId, staff.id, 0);
    await link(typeId, general.id, 1);
    await link(typeId, removed.id, 2);
    const [name, gone, size] = general.fields;
    await client.put(`/forms/${general.id}`, {
      fields: [size, name].map(({ id, name, type, options, required }) => ({
        id,
        name,
        type,
        options,
        required,
      })),
    });
    await client.delete(`/forms/${removed.id}`);

    const definitions = await app.get(FormRepository).fieldDefinitionsFor(owner.id, typeId);
    expect(definitions).toEqual([
      {
        id: staff.fields[0].id,
        formId: staff.id,
        type: 'textarea',
        required: false,
        options: null,
        formHidden: true,
      },
      {
        id: size.id,
        formId: general.id,
        type: 'dropdown',
        required: false,
        options: ['S', 'M'],
        formHidden: false,
      },
      {
        id: name.id,
        formId: general.id,
        type: 'textbox',
        required: true,
        options: null,
        formHidden: false,
      },
    ]);
    expect(definitions.map((d) => d.id)).not.toContain(gone.id);
    expect(definitions.map((d) => d.formId)).not.toContain(unlinked.id);

    // Another account asking for the type gets none of this account's forms.
    expect(await app.get(FormRepository).fieldDefinitionsFor(account.id, typeId)).toEqual([]);
  });
});
