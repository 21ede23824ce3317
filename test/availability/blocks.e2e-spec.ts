import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Block } from '../../src/modules/availability/block.entity';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

interface BlockBody {
  id: number;
  calendarID: number;
  start: string;
  end: string;
  notes: string;
  description: string;
}

describe('Blocks: /blocks, time taken off a calendar (e2e)', () => {
  let app: NestFastifyApplication;
  let owner: TestAccount;
  let api: ApiClient;
  let stranger: ApiClient;
  let strangerCalendar: number;
  let newYork: number;
  let london: number;

  /** Every block row of the owner's account, straight from the table. */
  const storedBlocks = () =>
    app
      .get(DataSource)
      .getRepository(Block)
      .count({ where: { accountId: owner.id } });

  const createBlock = async (body: Record<string, unknown>): Promise<BlockBody> => {
    const res = await api.post('/blocks', body);
    if (res.status !== 200)
      throw new Error(`POST /blocks → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as BlockBody;
  };

  beforeAll(async () => {
    app = await startApi();
    owner = await createAccount(app, { timezone: 'America/New_York' });
    api = apiClient(app, owner);
    stranger = apiClient(app, await createAccount(app));
    strangerCalendar = await createCalendar(stranger, { name: 'Elsewhere' });
    newYork = await createCalendar(api, { name: 'Manhattan', timezone: 'America/New_York' });
    london = await createCalendar(api, { name: 'Soho', timezone: 'Europe/London' });
  });

  afterAll(() => app.close());

  describe('create, read, delete', () => {
    it('creates a block read in the calendar zone, and reads it back whole', async () => {
      const res = await api.post('/blocks', {
        calendarID: newYork,
        start: '2026-03-03T09:00',
        end: '2026-03-03T10:30',
        notes: 'Staff meeting',
      });
      const block = {
        id: expect.any(Number),
        calendarID: newYork,
        start: '2026-03-03T09:00:00-0500',
        end: '2026-03-03T10:30:00-0500',
        notes: 'Staff meeting',
        description: 'March 3, 2026 9:00am - 10:30am',
      };
      expect(res.status).toBe(200);
      expect(res.body).toEqual(block);
      const { id } = res.body as BlockBody;

      expect(await api.get(`/blocks/${id}`)).toMatchObject({ status: 200, body: block });
      expect((await api.get(`/blocks/${id}`)).body).toEqual({ ...block, id });
      const listed = await api.get(
        `/blocks?calendarID=${newYork}&minDate=2026-03-03&maxDate=2026-03-03`,
      );
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([{ ...block, id }]);

      expect(await api.delete(`/blocks/${id}`)).toMatchObject({ status: 204, body: undefined });
      expect(await api.get(`/blocks/${id}`)).toMatchObject(apiError(404, 'not_found', 'Not Found'));
      expect(await api.delete(`/blocks/${id}`)).toMatchObject(
        apiError(404, 'not_found', 'Not Found'),
      );
      expect(
        (await api.get(`/blocks?calendarID=${newYork}&minDate=2026-03-03&maxDate=2026-03-03`)).body,
      ).toEqual([]);
    });

    it.each([
      [
        'over several days',
        '2026-03-03T09:00',
        '2026-03-05T18:00',
        '2026-03-03T09:00:00-0500',
        '2026-03-05T18:00:00-0500',
        'March 3, 2026 9:00am - March 5, 2026 6:00pm',
      ],
      [
        'across the spring-forward night',
        '2026-03-07T22:00',
        '2026-03-08T10:00',
        '2026-03-07T22:00:00-0500',
        '2026-03-08T10:00:00-0400',
        'March 7, 2026 10:00pm - March 8, 2026 10:00am',
      ],
      [
        'across the spring-forward gap, on one day',
        '2026-03-08T01:30',
        '2026-03-08T03:30',
        '2026-03-08T01:30:00-0500',
        '2026-03-08T03:30:00-0400',
        'March 8, 2026 1:30am - 3:30am',
      ],
      [
        'across the fall-back hour (the repeated 1:30 is its first occurrence)',
        '2026-11-01T00:30',
        '2026-11-01T01:30',
        '2026-11-01T00:30:00-0400',
        '2026-11-01T01:30:00-0400',
        'November 1, 2026 12:30am - 1:30am',
      ],
      [
        'ending after the fall-back hour',
        '2026-11-01T00:30',
        '2026-11-01T03:15',
        '2026-11-01T00:30:00-0400',
        '2026-11-01T03:15:00-0500',
        'November 1, 2026 12:30am - 3:15am',
      ],
      [
        'a whole day, midnight to midnight',
        '2026-12-24 00:00',
        '2026-12-25 00:00',
        '2026-12-24T00:00:00-0500',
        '2026-12-25T00:00:00-0500',
        'December 24, 2026 12:00am - December 25, 2026 12:00am',
      ],
      [
        'around noon, with seconds',
        '2026-07-04T11:45:30',
        '2026-07-04T12:05:00',
        '2026-07-04T11:45:30-0400',
        '2026-07-04T12:05:00-0400',
        'July 4, 2026 11:45am - 12:05pm',
      ],
    ])('shows a block %s', async (_, start, end, shownStart, shownEnd, description) => {
      const block = await createBlock({ calendarID: newYork, start, end });
      const expected = {
        id: block.id,
        calendarID: newYork,
        start: shownStart,
        end: shownEnd,
        notes: '',
        description,
      };
      expect(block).toEqual(expected);
      expect((await api.get(`/blocks/${block.id}`)).body).toEqual(expected);
      expect((await api.delete(`/blocks/${block.id}`)).status).toBe(204);
    });

    it('reads a datetime with an offset as that moment, and shows it in the calendar zone', async () => {
      const block = await createBlock({
        calendarID: london,
        start: '2026-07-01T09:00:00-0400',
        end: '2026-07-01T18:30:00Z',
        notes: 'Dentist',
      });
      expect(block).toEqual({
        id: block.id,
        calendarID: london,
        start: '2026-07-01T14:00:00+0100',
        end: '2026-07-01T19:30:00+0100',
        notes: 'Dentist',
        description: 'July 1, 2026 2:00pm - 7:30pm',
      });
      expect((await api.delete(`/blocks/${block.id}`)).status).toBe(204);
    });

    it('keeps notes of 4000 characters as given', async () => {
      const notes = ` ${'n'.repeat(3998)} `;
      const block = await createBlock({
        calendarID: newYork,
        start: '2026-05-01T09:00',
        end: '2026-05-01T10:00',
        notes,
      });
      expect(block.notes).toBe(notes);
      expect((await api.get(`/blocks/${block.id}`)).body.notes).toBe(notes);
      expect((await api.delete(`/blocks/${block.id}`)).status).toBe(204);
    });
  });

  describe('refused writes', () => {
    let deletedCalendar: number;

    beforeAll(async () => {
      deletedCalendar = await createCalendar(api, { name: 'Closed' });
      expect((await api.delete(`/calendars/${deletedCalendar}`)).status).toBe(204);
    });

    const at = (body: Record<string, unknown>) => () => ({
      calendarID: newYork,
      start: '2026-03-03T09:00',
      end: '2026-03-03T10:00',
      ...body,
    });

    const cases: [string, () => unknown, number, string, () => string][] = [
      [
        'an empty body',
        () => ({}),
        400,
        'required_calendar_id',
        () => 'The parameter "calendarID" is required.',
      ],
      [
        'no calendar',
        () => ({ start: '2026-03-03T09:00', end: '2026-03-03T10:00' }),
        400,
        'required_calendar_id',
        () => 'The parameter "calendarID" is required.',
      ],
      [
        'a null calendar',
        at({ calendarID: null }),
        400,
        'required_calendar_id',
        () => 'The parameter "calendarID" is required.',
      ],
      [
        'a non-numeric calendar',
        at({ calendarID: 'Manhattan' }),
        400,
        'invalid_calendar_id',
        () => 'Invalid "calendarID" attribute value.',
      ],
      [
        'an unknown calendar',
        at({ calendarID: 999999999 }),
        400,
        'invalid_calendar',
        () => 'The calendar "999999999" does not exist.',
      ],
      [
        'a deleted calendar',
        () => ({ ...at({})(), calendarID: deletedCalendar }),
        400,
        'invalid_calendar',
        () => `The calendar "${deletedCalendar}" does not exist.`,
      ],
      [
        'no start',
        () => ({ calendarID: newYork, end: '2026-03-03T10:00' }),
        400,
        'required_start',
        () => 'The parameter "start" is required.',
      ],
      [
        'a blank start',
        at({ start: '  ' }),
        400,
        'required_start',
        () => 'The parameter "start" is required.',
      ],
      [
        'no end',
        () => ({ calendarID: newYork, start: '2026-03-03T09:00' }),
        400,
        'required_end',
        () => 'The parameter "end" is required.',
      ],
      [
        'a numeric start',
        at({ start: 20260303 }),
        400,
        'invalid_start',
        () => 'Invalid "start" attribute value.',
      ],
      [
        'an unparseable start',
        at({ start: 'next monday' }),
        400,
        'invalid_start',
        () => 'The datetime "next monday" is invalid.',
      ],
      [
        'a start in the spring-forward gap',
        at({ start: '2026-03-08T02:30', end: '2026-03-08T04:00' }),
        400,
        'invalid_start',
        () => 'The datetime "2026-03-08T02:30" is invalid.',
      ],
      [
        'a start no DATETIME column holds',
        at({ start: '0999-12-31T10:00' }),
        400,
        'invalid_start',
        () => 'The datetime "0999-12-31T10:00" is invalid.',
      ],
      [
        'an end past the years a DATETIME column holds',
        at({ end: '9999-12-31T23:00' }),
        400,
        'invalid_end',
        () => 'The datetime "9999-12-31T23:00" is invalid.',
      ],
      [
        'an impossible end date',
        at({ end: '2026-02-30T10:00' }),
        400,
        'invalid_end',
        () => 'The datetime "2026-02-30T10:00" is invalid.',
      ],
      [
        'an end in the spring-forward gap',
        at({ start: '2026-03-08T01:00', end: '2026-03-08T02:15' }),
        400,
        'invalid_end',
        () => 'The datetime "2026-03-08T02:15" is invalid.',
      ],
      [
        'notes of 4001 characters',
        at({ notes: 'n'.repeat(4001) }),
        400,
        'invalid_notes',
        () => 'Invalid "notes" attribute value.',
      ],
      [
        'null notes',
        at({ notes: null }),
        400,
        'invalid_notes',
        () => 'Invalid "notes" attribute value.',
      ],
      [
        'an end before the start',
        at({ start: '2026-03-03T10:00', end: '2026-03-03T09:00' }),
        422,
        'invalid_time',
        () => 'The end "2026-03-03T09:00" is before the start "2026-03-03T10:00".',
      ],
      [
        'an end before the start only once offsets are read',
        at({ start: '2026-03-03T10:00', end: '2026-03-03T14:59:59Z' }),
        422,
        'invalid_time',
        () => 'The end "2026-03-03T14:59:59Z" is before the start "2026-03-03T10:00".',
      ],
      [
        'an end equal to the start',
        at({ start: '2026-03-03T10:00', end: '2026-03-03T10:00:00-0500' }),
        422,
        'invalid_time',
        () => 'The end "2026-03-03T10:00:00-0500" is the same as the start "2026-03-03T10:00".',
      ],
      [
        'a body that is not an object',
        () => [],
        400,
        'bad_request',
        () => 'Expected a JSON object.',
      ],
    ];

    it.each(cases)('refuses %s, and writes nothing', async (_, body, status, error, message) => {
      const before = await storedBlocks();
      expect(await api.post('/blocks', body())).toMatchObject(apiError(status, error, message()));
      expect(await storedBlocks()).toBe(before);
    });

    it("refuses another account's calendar with 403, and writes nothing", async () => {
      const before = await storedBlocks();
      expect(
        await api.post('/blocks', {
          calendarID: strangerCalendar,
          start: '2026-03-03T09:00',
          end: '2026-03-03T10:00',
        }),
      ).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
      expect(await storedBlocks()).toBe(before);
    });
  });

  describe('tenant rule on ids', () => {
    it("gives 403 for another account's block on GET and DELETE, and leaves it", async () => {
      const block = await createBlock({
        calendarID: newYork,
        start: '2026-06-01T09:00',
        end: '2026-06-01T10:00',
      });
      expect(await stranger.get(`/blocks/${block.id}`)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
      expect(await stranger.delete(`/blocks/${block.id}`)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
      expect((await api.get(`/blocks/${block.id}`)).body).toEqual(block);
      expect((await stranger.get('/blocks')).body).toEqual([]);
      expect((await api.delete(`/blocks/${block.id}`)).status).toBe(204);
    });

    it('gives 404 for an id that exists nowhere', async () => {
      expect(await api.get('/blocks/999999999')).toMatchObject(
        apiError(404, 'not_found', 'Not Found'),
      );
      expect(await api.delete('/blocks/999999999')).toMatchObject(
        apiError(404, 'not_found', 'Not Found'),
      );
    });
  });

  describe('GET /blocks filters', () => {
    // An account of its own, so that the lists are exact. Its zone is New York's.
    let lister: ApiClient;
    let ny: number;
    let tokyo: number;
    let ids: Record<'T' | 'A' | 'B' | 'C' | 'D', number>;

    const listed = async (query: string): Promise<number[]> => {
      const res = await lister.get(`/blocks${query}`);
      if (res.status !== 200)
        throw new Error(`GET /blocks${query} → ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body as BlockBody[]).map((b) => b.id);
    };

    beforeAll(async () => {
      lister = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
      ny = await createCalendar(lister, { name: 'NY', timezone: 'America/New_York' });
      tokyo = await createCalendar(lister, { name: 'Tokyo', timezone: 'Asia/Tokyo' });
      const make = async (calendarID: number, start: string, end: string) => {
        const res = await lister.post('/blocks', { calendarID, start, end });
        expect(res.status).toBe(200);
        return (res.body as BlockBody).id;
      };
      // Created out of start order, to see the list sort them.
      const D = await make(ny, '2026-04-05T00:00', '2026-04-05T01:00'); // starts at maxDate 04-04's end
      const C = await make(ny, '2026-04-04T23:00', '2026-04-05T00:00'); // last hour of 04-04
      const B = await make(ny, '2026-04-02T23:00', '2026-04-03T01:00'); // overlaps 04-03's start
      const A = await make(ny, '2026-04-02T22:00', '2026-04-03T00:00'); // ends at 04-03's start
      // 04-03 09:00-10:00 in Tokyo is 04-02 20:00-21:00 in New York.
      const T = await make(tokyo, '2026-04-03T09:00', '2026-04-03T10:00');
      ids = { T, A, B, C, D };
    });

    it('lists every block by start, in the shape of one block', async () => {
      expect(await listed('')).toEqual([ids.T, ids.A, ids.B, ids.C, ids.D]);
      expect(await listed('.json')).toEqual([ids.T, ids.A, ids.B, ids.C, ids.D]);
      const [first] = (await lister.get('/blocks')).body as BlockBody[];
      expect(first).toEqual({
        id: ids.T,
        calendarID: tokyo,
        start: '2026-04-03T09:00:00+0900',
        end: '2026-04-03T10:00:00+0900',
        notes: '',
        description: 'April 3, 2026 9:00am - 10:00am',
      });
    });

    it('orders blocks that start together by id', async () => {
      const other = apiClient(app, await createAccount(app));
      const calendar = await createCalendar(other);
      const post = (end: string) =>
        other.post('/blocks', { calendarID: calendar, start: '2026-09-01T09:00', end });
      const first = (await post('2026-09-01T12:00')).body as BlockBody;
      const second = (await post('2026-09-01T10:00')).body as BlockBody;
      expect(((await other.get('/blocks')).body as BlockBody[]).map((b) => b.id)).toEqual([
        first.id,
        second.id,
      ]);
    });

    it.each([
      ['?max=2', ['T', 'A']],
      ['?max=1', ['T']],
      ['?max=1000', ['T', 'A', 'B', 'C', 'D']],
      // Read in the account's zone (New York): a block that ends at 04-03 00:00 is not in 04-03,
      // one that starts at 04-05 00:00 is not in 04-04.
      ['?minDate=2026-04-03&maxDate=2026-04-04', ['B', 'C']],
      ['?minDate=2026-04-03', ['B', 'C', 'D']],
      ['?maxDate=2026-04-04', ['T', 'A', 'B', 'C']],
      ['?minDate=2026-04-02&maxDate=2026-04-02', ['T', 'A', 'B']],
      ['?minDate=2026-04-05&maxDate=2026-04-05', ['D']],
      ['?minDate=2026-04-06', []],
      // The first and last days the service takes (docs/api.md, Dates and years).
      ['?minDate=1900-01-01&maxDate=2999-12-31', ['T', 'A', 'B', 'C', 'D']],
      ['?minDate=2999-12-31', []],
      ['?maxDate=1900-01-01', []],
      ['?minDate=2026-04-03&maxDate=2026-04-04&max=1', ['B']],
    ] as const)('GET /blocks%s', async (query, expected) => {
      expect(await listed(query)).toEqual(expected.map((k) => ids[k]));
    });

    it('reads the dates in the zone of the one calendar asked for', async () => {
      // 04-03 in Tokyo holds T, which is 04-02 in New York.
      expect(await listed(`?calendarID=${tokyo}&minDate=2026-04-03&maxDate=2026-04-03`)).toEqual([
        ids.T,
      ]);
      expect(await listed(`?calendarID[]=${tokyo}&minDate=2026-04-02&maxDate=2026-04-02`)).toEqual(
        [],
      );
      expect(await listed(`?calendarID=${ny}&minDate=2026-04-03`)).toEqual([ids.B, ids.C, ids.D]);
    });

    it.each([
      (ny: number, tokyo: number) => `calendarID[]=${ny}&calendarID[]=${tokyo}`,
      (ny: number, tokyo: number) => `calendarID[0]=${tokyo}&calendarID[1]=${ny}`,
      (ny: number, tokyo: number) => `calendarID=${ny},${tokyo}`,
    ])('takes several calendars (%#), reading the dates in the account zone', async (shape) => {
      const query = shape(ny, tokyo);
      expect(await listed(`?${query}`)).toEqual([ids.T, ids.A, ids.B, ids.C, ids.D]);
      // 04-03 in New York: T (04-02 evening there) is out, though it is 04-03 in Tokyo.
      expect(await listed(`?${query}&minDate=2026-04-03&maxDate=2026-04-03`)).toEqual([ids.B]);
    });

    it.each([
      (_ny: number, tokyo: number) => `calendarID[]=${tokyo}`,
      (_ny: number, tokyo: number) => `calendarID[0]=${tokyo}`,
      (_ny: number, tokyo: number) => `calendarID=${tokyo}`,
    ])('takes one calendar in any shape (%#)', async (shape) => {
      expect(await listed(`?${shape(ny, tokyo)}`)).toEqual([ids.T]);
    });

    it('leaves out the blocks of a deleted calendar, which stay readable by id', async () => {
      const closed = await createCalendar(lister, { name: 'Closed' });
      const res = await lister.post('/blocks', {
        calendarID: closed,
        start: '2026-04-03T12:00',
        end: '2026-04-03T13:00',
      });
      const block = res.body as BlockBody;
      expect(await listed('?minDate=2026-04-03&maxDate=2026-04-03')).toEqual([ids.B, block.id]);
      expect((await lister.delete(`/calendars/${closed}`)).status).toBe(204);
      expect(await listed('?minDate=2026-04-03&maxDate=2026-04-03')).toEqual([ids.B]);
      expect((await lister.get(`/blocks/${block.id}`)).body).toEqual(block);
      expect(await lister.get(`/blocks?calendarID=${closed}`)).toMatchObject(
        apiError(400, 'invalid_calendar', `The calendar "${closed}" does not exist.`),
      );
    });

    it.each([
      ['max=0', 'invalid_max', 'Invalid "max" attribute value.'],
      ['max=1001', 'invalid_max', 'Invalid "max" attribute value.'],
      ['max=-1', 'invalid_max', 'Invalid "max" attribute value.'],
      ['max=1.5', 'invalid_max', 'Invalid "max" attribute value.'],
      ['max=ten', 'invalid_max', 'Invalid "max" attribute value.'],
      ['max=', 'invalid_max', 'Invalid "max" attribute value.'],
      ['minDate=2026-02-30', 'invalid_min_date', 'Invalid "minDate" attribute value.'],
      ['minDate=04/03/2026', 'invalid_min_date', 'Invalid "minDate" attribute value.'],
      ['minDate=2026-04-03T00:00', 'invalid_min_date', 'Invalid "minDate" attribute value.'],
      ['maxDate=2026-4-3', 'invalid_max_date', 'Invalid "maxDate" attribute value.'],
      ['maxDate=', 'invalid_max_date', 'Invalid "maxDate" attribute value.'],
      [
        'minDate=2026-04-03&maxDate=2026-04-02',
        'invalid_max_date',
        'The maxDate "2026-04-02" is before the minDate "2026-04-03".',
      ],
      ['calendarID=abc', 'invalid_calendar_id', 'Invalid "calendarID" attribute value.'],
      ['calendarID[]=0', 'invalid_calendar_id', 'Invalid "calendarID" attribute value.'],
      ['calendarID=999999999', 'invalid_calendar', 'The calendar "999999999" does not exist.'],
    ])('refuses ?%s', async (query, error, message) => {
      expect(await lister.get(`/blocks?${query}`)).toMatchObject(apiError(400, error, message));
    });

    it("refuses another account's calendar with 403, alone or among the account's", async () => {
      expect(await lister.get(`/blocks?calendarID=${strangerCalendar}`)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
      expect(
        await lister.get(`/blocks?calendarID[]=${ny}&calendarID[]=${strangerCalendar}`),
      ).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
    });
  });
});
