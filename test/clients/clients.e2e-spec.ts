import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAccount, startApi } from '../support/test-app';

describe('Clients: /clients (e2e)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await startApi();
  });

  afterAll(() => app.close());

  /** An account of its own, so that each test sees only its clients. */
  const freshApi = async (): Promise<ApiClient> => apiClient(app, await createAccount(app));

  /** The name most tests give their client, and the query naming it. */
  const named = { firstName: 'Jane', lastName: 'Doe' };

  const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

  /** A row of a table as a test's title: its inputs (a long run of one character as `x×256`) → its code. */
  const titled = <T extends unknown[]>(rows: T[]): [string, ...T][] =>
    rows.map((row) => {
      const inputs = row.slice(0, -2).map((value) => JSON.stringify(value));
      const title = `${inputs.join(' ')} → ${String(row[row.length - 2])}`;
      return [title.replace(/(.)\1{9,}/g, (run, c: string) => `${c}×${run.length}`), ...row];
    });

  describe('POST /clients', () => {
    it('adds a client and answers it in the reference shape (trimmed, e-mail lower-cased)', async () => {
      const api = await freshApi();
      const res = await api.post('/clients', {
        firstName: ' Jane ',
        lastName: 'Doe',
        email: ' Jane.Doe@Example.COM ',
        phone: '+1 555 0100',
        notes: 'Prefers mornings.',
        id: 12,
        unknown: 'dropped',
      });
      expect(res).toMatchObject({
        status: 200,
        body: {
          firstName: 'Jane',
          lastName: 'Doe',
          email: 'jane.doe@example.com',
          phone: '+1 555 0100',
          notes: 'Prefers mornings.',
        },
      });
      expect(Object.keys(res.body as object).sort()).toEqual([
        'email',
        'firstName',
        'lastName',
        'notes',
        'phone',
      ]);
      expect((await api.get('/clients')).body).toEqual([res.body]);
    });

    it('gives the details left out (or null) as ""', async () => {
      const api = await freshApi();
      const res = await api.post('/clients', {
        firstName: 'Sam',
        lastName: 'Lee',
        email: null,
        phone: '',
      });
      expect(res).toMatchObject({
        status: 200,
        body: { firstName: 'Sam', lastName: 'Lee', email: '', phone: '', notes: '' },
      });
    });

    it.each(
      titled<[object, string, string]>([
        [{}, 'required_first_name', 'Attribute "firstName" is required.'],
        [
          { firstName: ' ', lastName: 'Doe' },
          'required_first_name',
          'Attribute "firstName" is required.',
        ],
        [{ firstName: 'Jane' }, 'required_last_name', 'Attribute "lastName" is required.'],
        [
          { firstName: 'Jane', lastName: '' },
          'required_last_name',
          'Attribute "lastName" is required.',
        ],
      ]),
    )('refuses %s', async (_, body, error, message) => {
      const api = await freshApi();
      expect(await api.post('/clients', body)).toMatchObject(apiError(400, error, message));
      expect((await api.get('/clients')).body).toEqual([]);
    });

    /** `invalid_<attribute>`, "Invalid "<attribute>" attribute value.", as booking says it. */
    const INVALID_CODES: Record<string, string> = {
      firstName: 'invalid_first_name',
      lastName: 'invalid_last_name',
      email: 'invalid_email',
      phone: 'invalid_phone',
      notes: 'invalid_notes',
    };

    it.each(
      titled<[string, unknown, string, string]>(
        (
          [
            ['firstName', 42],
            ['firstName', 'x'.repeat(256)],
            ['lastName', 'x'.repeat(256)],
            ['email', 'jane'],
            ['email', 'jane@example.com, joe@example.com'],
            ['email', `${'j'.repeat(250)}@example.com`],
            ['email', 7],
            ['phone', '5'.repeat(65)],
            ['phone', 5550100],
            ['notes', 'n'.repeat(4001)],
          ] as const
        ).map(([attribute, value]) => [
          attribute,
          value,
          INVALID_CODES[attribute],
          `Invalid "${attribute}" attribute value.`,
        ]),
      ),
    )('refuses %s', async (_, attribute, value, error, message) => {
      const api = await freshApi();
      const body = { firstName: 'Jane', lastName: 'Doe', [attribute]: value };
      expect(await api.post('/clients', body)).toMatchObject(apiError(400, error, message));
      expect((await api.get('/clients')).body).toEqual([]);
    });

    it('refuses a body that is not a JSON object, and one not sent as JSON', async () => {
      const api = await freshApi();
      expect(await api.post('/clients', ['Jane', 'Doe'])).toMatchObject(
        apiError(400, 'bad_request', 'Expected a JSON object.'),
      );
      const account = await createAccount(app);
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/clients',
        headers: { authorization: account.authorization, 'content-type': 'text/plain' },
        payload: 'firstName=Jane',
      });
      expect({ status: res.statusCode, body: res.json() }).toEqual(
        apiError(
          415,
          'unsupported_media_type',
          'Content-Type "text/plain" is not supported; send "application/json".',
        ),
      );
    });

    it('refuses the same person again: the name with the same e-mail, else phone, else alone', async () => {
      const api = await freshApi();
      const duplicate = (name: string) =>
        apiError(
          400,
          'duplicate_client',
          `The client "${name}" already exists; PUT /clients changes it.`,
        );
      await api.post('/clients', { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' });
      // Case, spacing and the e-mail's case do not make another person.
      expect(
        await api.post('/clients', {
          firstName: ' JANE',
          lastName: 'doe ',
          email: 'Jane@Example.com',
          phone: '1',
        }),
      ).toMatchObject(duplicate('JANE doe'));
      // Another e-mail is another person of the same name.
      expect(
        await api.post('/clients', { firstName: 'Jane', lastName: 'Doe', email: 'jd@example.com' }),
      ).toMatchObject({ status: 200 });

      await api.post('/clients', {
        firstName: 'Joe',
        lastName: 'Bloggs',
        phone: '+1 (555) 010-0000',
      });
      expect(
        await api.post('/clients', { firstName: 'Joe', lastName: 'Bloggs', phone: '15550100000' }),
      ).toMatchObject(duplicate('Joe Bloggs'));
      expect(
        await api.post('/clients', {
          firstName: 'Joe',
          lastName: 'Bloggs',
          phone: '+1 555 010 0001',
        }),
      ).toMatchObject({ status: 200 });

      await api.post('/clients', { firstName: 'Ann', lastName: 'Onymous' });
      expect(await api.post('/clients', { firstName: 'ann', lastName: 'onymous' })).toMatchObject(
        duplicate('ann onymous'),
      );
      expect((await api.get('/clients')).body).toHaveLength(5);
    });
  });

  describe('GET /clients', () => {
    let api: ApiClient;
    const people = [
      { firstName: 'Zoë', lastName: 'Adams', email: 'z.adams@example.com', phone: '' },
      { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com', phone: '+1 (555) 010-0000' },
      { firstName: 'John', lastName: 'Doe', email: 'john@work.example', phone: '555 0199' },
      { firstName: 'Ada', lastName: 'Lovelace', email: '', phone: '+44 20 7946 0000' },
      { firstName: 'Per_cent', lastName: '100%', email: '', phone: '' },
    ];
    const view = (p: (typeof people)[number]) => ({ ...p, notes: '' });

    beforeAll(async () => {
      api = await freshApi();
      for (const person of [...people].reverse()) {
        expect((await api.post('/clients', person)).status).toBe(200);
      }
    });

    it('lists every client by last name, then first name', async () => {
      expect(await api.get('/clients')).toEqual({
        status: 200,
        body: [people[4], people[0], people[1], people[2], people[3]].map(view),
        headers: expect.any(Object),
      });
    });

    it.each([
      ['a first name, in any case', 'JANE', [1]],
      ['part of a last name', 'ovel', [3]],
      ['the full name', 'jane doe', [1]],
      ['the full name with extra spaces', '  Jane   Doe ', [1]],
      ['part of an e-mail', '@work.', [2]],
      ['a phone as written', '(555) 010', [1]],
      ['a phone by its digits', '5550100000', [1]],
      ['a phone by its digits, written otherwise', '+1 555-0100', [1]],
      ['accents ignored', 'zoe', [0]],
      ['a shared part', 'doe', [1, 2]],
      ['% taken literally', '%', [4]],
      ['_ taken literally', '_', [4]],
      ['nothing', 'nobody', []],
    ])('searches %s (%p)', async (_, search, indexes) => {
      const res = await api.get(`/clients${query({ search })}`);
      expect(res.status).toBe(200);
      const expected = indexes.map((i) => view(people[i]));
      expect(res.body).toEqual(
        [...expected].sort((a, b) =>
          a.lastName === b.lastName
            ? a.firstName.localeCompare(b.firstName)
            : a.lastName.localeCompare(b.lastName),
        ),
      );
    });

    it('lists all for an empty search, and at most `max`', async () => {
      expect((await api.get('/clients?search=')).body).toHaveLength(5);
      expect((await api.get('/clients?max=2')).body).toEqual([people[4], people[0]].map(view));
      expect((await api.get('/clients?max=10000&search=doe')).body).toHaveLength(2);
    });

    it.each(
      titled<[string, string, string]>([
        ['/clients?max=0', 'invalid_max', 'Invalid "max" attribute value.'],
        ['/clients?max=10001', 'invalid_max', 'Invalid "max" attribute value.'],
        ['/clients?max=ten', 'invalid_max', 'Invalid "max" attribute value.'],
        [
          `/clients?search=${'s'.repeat(256)}`,
          'invalid_search',
          'Invalid "search" attribute value.',
        ],
        ['/clients?search=a&search=b', 'invalid_search', 'Invalid "search" attribute value.'],
      ]),
    )('refuses %s', async (_, path, error, message) => {
      expect(await api.get(path)).toMatchObject(apiError(400, error, message));
    });
  });

  describe('PUT /clients', () => {
    it('changes what the body gives of the client the query names', async () => {
      const api = await freshApi();
      await api.post('/clients', {
        ...named,
        email: 'jane@example.com',
        notes: 'VIP',
      });
      const res = await api.put(`/clients${query({ firstName: 'jane', lastName: 'DOE' })}`, {
        phone: ' +1 555 0100 ',
        email: 'Jane.Doe@Example.com',
      });
      const changed = {
        ...named,
        email: 'jane.doe@example.com',
        phone: '+1 555 0100',
        notes: 'VIP',
      };
      expect(res).toMatchObject({ status: 200, body: changed });
      expect((await api.get('/clients')).body).toEqual([changed]);

      // Renamed, then found by the new name; an empty body changes nothing.
      expect(
        await api.put(`/clients${query(named)}`, {
          lastName: 'Smith',
          notes: null,
        }),
      ).toMatchObject({ status: 200, body: { ...changed, lastName: 'Smith', notes: '' } });
      expect(
        await api.put(`/clients${query({ firstName: 'Jane', lastName: 'Smith' })}`),
      ).toMatchObject({
        status: 200,
        body: { ...changed, lastName: 'Smith', notes: '' },
      });
      expect(await api.put(`/clients${query(named)}`, {})).toMatchObject(
        apiError(404, 'not_found', 'No client "Jane Doe" was found.'),
      );
    });

    it('needs the phone, or the e-mail, when several clients have the name', async () => {
      const api = await freshApi();
      await api.post('/clients', {
        ...named,
        email: 'a@example.com',
        phone: '555 0100',
      });
      await api.post('/clients', {
        ...named,
        email: 'b@example.com',
        phone: '555 0199',
      });
      await api.post('/clients', {
        ...named,
        email: 'c@example.com',
        phone: '555 0199',
      });
      const name = { firstName: 'Jane', lastName: 'Doe' };

      expect(await api.put(`/clients${query(name)}`, { notes: 'x' })).toMatchObject(
        apiError(
          400,
          'ambiguous_client',
          'Several clients match "Jane Doe"; give "phone" or "email" too.',
        ),
      );
      expect(
        await api.put(`/clients${query({ ...name, phone: '5550199' })}`, { notes: 'x' }),
      ).toMatchObject(
        apiError(
          400,
          'ambiguous_client',
          'Several clients match "Jane Doe" with phone "5550199"; give "email" too.',
        ),
      );
      expect(
        await api.put(`/clients${query({ ...name, phone: '(555) 0100' })}`, { notes: 'first' }),
      ).toMatchObject({ status: 200, body: { email: 'a@example.com', notes: 'first' } });
      expect(
        await api.put(`/clients${query({ ...name, phone: '555 0199', email: 'C@example.com' })}`, {
          notes: 'third',
        }),
      ).toMatchObject({ status: 200, body: { email: 'c@example.com', notes: 'third' } });
      expect(await api.put(`/clients${query({ ...name, phone: '555 0000' })}`, {})).toMatchObject(
        apiError(404, 'not_found', 'No client "Jane Doe" with phone "555 0000" was found.'),
      );
      expect(
        await api.put(`/clients${query({ ...name, email: 'z@example.com' })}`, {}),
      ).toMatchObject(
        apiError(404, 'not_found', 'No client "Jane Doe" with e-mail "z@example.com" was found.'),
      );
      expect(
        ((await api.get('/clients')).body as { notes: string }[]).map((c) => c.notes).sort(),
      ).toEqual(['', 'first', 'third']);
    });

    const invalid = (attribute: string) => `Invalid "${attribute}" attribute value.`;
    it.each(
      titled<[Record<string, string>, object, string, string]>([
        [{ lastName: 'Doe' }, {}, 'required_first_name', 'The parameter "firstName" is required.'],
        [
          { ...named, firstName: ' ' },
          {},
          'required_first_name',
          'The parameter "firstName" is required.',
        ],
        [{ firstName: 'Jane' }, {}, 'required_last_name', 'The parameter "lastName" is required.'],
        [{ ...named, phone: '5'.repeat(65) }, {}, 'invalid_phone', invalid('phone')],
        [
          named,
          { firstName: '' },
          'invalid_first_name',
          'Attribute "firstName" cannot be cleared.',
        ],
        [named, { lastName: null }, 'invalid_last_name', invalid('lastName')],
        [named, { email: 'not an e-mail' }, 'invalid_email', invalid('email')],
        [named, { phone: 42 }, 'invalid_phone', invalid('phone')],
      ]),
    )('refuses %s', async (_, params, body, error, message) => {
      const api = await freshApi();
      await api.post('/clients', { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' });
      expect(await api.put(`/clients${query(params)}`, body)).toMatchObject(
        apiError(400, error, message),
      );
      expect((await api.get('/clients')).body).toEqual([
        { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com', phone: '', notes: '' },
      ]);
    });

    it('refuses a repeated query parameter', async () => {
      const api = await freshApi();
      expect(await api.put('/clients?firstName=Jane&firstName=Joe&lastName=Doe', {})).toMatchObject(
        apiError(400, 'invalid_first_name', 'Invalid "firstName" attribute value.'),
      );
    });

    it('refuses to make a client another one (duplicate_client), changing nothing', async () => {
      const api = await freshApi();
      await api.post('/clients', { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' });
      await api.post('/clients', {
        ...named,
        email: 'other@example.com',
      });
      expect(
        await api.put(
          `/clients${query({ firstName: 'Jane', lastName: 'Doe', email: 'other@example.com' })}`,
          {
            email: 'JANE@example.com',
          },
        ),
      ).toMatchObject(
        apiError(
          400,
          'duplicate_client',
          'The client "Jane Doe" already exists; PUT /clients changes it.',
        ),
      );
      expect(
        ((await api.get('/clients')).body as { email: string }[]).map((c) => c.email).sort(),
      ).toEqual(['jane@example.com', 'other@example.com']);
    });
  });

  describe('DELETE /clients', () => {
    it('removes the client the query names: 204, then 404', async () => {
      const api = await freshApi();
      await api.post('/clients', { firstName: 'Jane', lastName: 'Doe', phone: '555 0100' });
      await api.post('/clients', { firstName: 'Jane', lastName: 'Doe', phone: '555 0199' });
      await api.post('/clients', { firstName: 'Joe', lastName: 'Doe' });
      expect(await api.delete(`/clients${query(named)}`)).toMatchObject(
        apiError(
          400,
          'ambiguous_client',
          'Several clients match "Jane Doe"; give "phone" or "email" too.',
        ),
      );
      const target = `/clients${query({ firstName: 'Jane', lastName: 'Doe', phone: '555-0199' })}`;
      expect(await api.delete(target)).toMatchObject({ status: 204, body: undefined });
      expect((await api.get('/clients')).body).toEqual([
        { firstName: 'Jane', lastName: 'Doe', email: '', phone: '555 0100', notes: '' },
        { firstName: 'Joe', lastName: 'Doe', email: '', phone: '', notes: '' },
      ]);
      expect(await api.delete(target)).toMatchObject(
        apiError(404, 'not_found', 'No client "Jane Doe" with phone "555-0199" was found.'),
      );
      expect(await api.delete('/clients?lastName=Doe')).toMatchObject(
        apiError(400, 'required_first_name', 'The parameter "firstName" is required.'),
      );
    });
  });

  describe('between accounts', () => {
    it("never lists, matches, changes or removes another account's client", async () => {
      const mine = await freshApi();
      const theirs = await freshApi();
      const jane = {
        firstName: 'Jane',
        lastName: 'Doe',
        email: 'jane@example.com',
        phone: '',
        notes: '',
      };
      await theirs.post('/clients', { ...jane, firstName: 'Only', lastName: 'Theirs' });
      await theirs.post('/clients', jane);
      // The same person may be a client of both.
      expect(await mine.post('/clients', jane)).toMatchObject({ status: 200, body: jane });

      expect((await mine.get('/clients')).body).toEqual([jane]);
      expect((await mine.get('/clients?search=theirs')).body).toEqual([]);
      const theirName = query({ firstName: 'Only', lastName: 'Theirs' });
      expect(await mine.put(`/clients${theirName}`, { notes: 'mine now' })).toMatchObject(
        apiError(404, 'not_found', 'No client "Only Theirs" was found.'),
      );
      expect(await mine.delete(`/clients${theirName}`)).toMatchObject(
        apiError(404, 'not_found', 'No client "Only Theirs" was found.'),
      );
      expect(
        await mine.put(`/clients${query({ firstName: 'Jane', lastName: 'Doe' })}`, {
          notes: 'mine',
        }),
      ).toMatchObject({
        status: 200,
        body: { ...jane, notes: 'mine' },
      });
      expect(
        await mine.delete(`/clients${query({ firstName: 'Jane', lastName: 'Doe' })}`),
      ).toMatchObject({
        status: 204,
      });

      expect((await theirs.get('/clients')).body).toEqual([
        jane,
        { ...jane, firstName: 'Only', lastName: 'Theirs' },
      ]);
    });

    it('answers 401 without credentials', async () => {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) {
        const res = await app.inject({ method, url: '/api/v1/clients?firstName=a&lastName=b' });
        expect({ status: res.statusCode, body: res.json() }).toEqual(
          apiError(401, 'unauthorized', 'Unauthorized'),
        );
      }
    });
  });
});
