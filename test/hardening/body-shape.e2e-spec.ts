import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions } from 'fastify';
import { apiClient } from '../support/api-client';
import { createCalendar } from '../support/catalog-fixtures';
import { PlatformProbeController } from '../support/platform-probe.controller';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/**
 * Issue 20 item 1: a JSON body of many keys (or long arrays) cost the API seconds of CPU in the
 * validation pipe's transformation, quadratic in the keys of an object, on any route, while every
 * other request waited. The body's shape is now bounded in the body parser, before anything
 * transforms it, and what is within the bounds is validated in time linear in its size.
 */

/** `n` distinct short keys (base 36), so that 80,000 of them fit in the 1 MiB body limit. */
const KEYS = (n: number, from = 0) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [(from + i).toString(36), 0]));

/**
 * About MAX_JSON_VALUES values' worth (a little less) of objects of `keys` distinct keys each, in
 * arrays of at most 1000.
 */
function objects(keys: number): Record<string, number>[][] {
  const count = Math.floor(9_900 / (keys + 1));
  return Array.from({ length: Math.ceil(count / 1000) }, (_, chunk) =>
    Array.from({ length: Math.min(1000, count - chunk * 1000) }, (_, i) =>
      KEYS(keys, (chunk * 1000 + i) * keys),
    ),
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

describe('Hardening: the shape of a JSON body is bounded before anything transforms it (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;
  let calendarID: number;

  beforeAll(async () => {
    app = await startApi({ controllers: [PlatformProbeController] });
    account = await createAccount(app);
    calendarID = await createCalendar(apiClient(app, account));
  });
  afterAll(() => app.close());

  const request = (
    url: string,
    payload: string,
    method: 'POST' | 'PUT' = 'POST',
  ): InjectOptions => ({
    method,
    url,
    headers: { authorization: account.authorization, 'content-type': 'application/json' },
    payload,
  });

  /** Wall time of one in-process request: all of it is the server's work. */
  async function timed(options: InjectOptions) {
    const start = process.hrtime.bigint();
    const res = await app.inject(options);
    return { res, ms: Number(process.hrtime.bigint() - start) / 1e6 };
  }

  /** The process's CPU time (user + system) of one request, in ms. */
  async function cpuOf(options: InjectOptions) {
    const before = process.cpuUsage();
    const res = await app.inject(options);
    const { user, system } = process.cpuUsage(before);
    return { res, ms: (user + system) / 1000 };
  }

  const badRequest = (message: string) => ({ status_code: 400, error: 'bad_request', message });

  it('answers an 80,000-key body in under 50 ms while /health/live keeps answering', async () => {
    const payload = JSON.stringify({ name: 'Ada', junk: KEYS(80_000) });
    expect(payload.length).toBeLessThan(1024 * 1024);

    for (const url of ['/api/v1/probe/echo', '/api/v1/nothing-here']) {
      // Warm up the paths measured below.
      await app.inject(request(url, payload));
      await app.inject({ method: 'GET', url: '/health/live' });
      const times: number[] = [];
      // The slowest probe of each run: a probe waits for whatever the big request holds.
      const slowestProbes: number[] = [];
      for (let run = 0; run < 7; run++) {
        let done = false;
        const big = timed(request(url, payload)).finally(() => (done = true));
        const probes: number[] = [];
        const probing = (async () => {
          // At least three probes, and more for as long as the big request is in flight.
          for (let i = 0; i < 3 || !done; i++) {
            const probe = await timed({ method: 'GET', url: '/health/live' });
            expect(probe.res.statusCode).toBe(200);
            probes.push(probe.ms);
          }
        })();
        const { res, ms } = await big;
        await probing;
        expect({ url, status: res.statusCode, body: res.json() }).toEqual({
          url,
          status: 400,
          body: badRequest('An object in the body has more than 2000 keys.'),
        });
        times.push(ms);
        slowestProbes.push(Math.max(...probes));
      }
      // Medians of runs: robust against a pause of the machine, not against a slow server.
      expect({ url, request: median(times) < 50, probes: median(slowestProbes) < 50 }).toEqual({
        url,
        request: true,
        probes: true,
      });
    }
  });

  it.each([
    [
      'keys at the top',
      () => ({ name: 'Ada', ...KEYS(2001) }),
      'An object in the body has more than 2000 keys.',
    ],
    [
      'keys under an attribute',
      () => ({ name: KEYS(2001) }),
      'An object in the body has more than 2000 keys.',
    ],
    [
      'keys in an array',
      () => ({ name: 'Ada', list: [1, { a: KEYS(2001) }] }),
      'An object in the body has more than 2000 keys.',
    ],
    [
      'a long id array',
      () => ({ name: 'Ada', addonIDs: Array.from({ length: 2001 }, (_, i) => i + 1) }),
      'An array in the body has more than 2000 items.',
    ],
    [
      '140,000 ids',
      () => ({ name: 'Ada', addonIDs: Array.from({ length: 140_000 }, (_, i) => i % 10) }),
      'An array in the body has more than 2000 items.',
    ],
    [
      'a top-level array',
      () => Array.from({ length: 2001 }, () => 0),
      'An array in the body has more than 2000 items.',
    ],
    [
      'too many values in all',
      () => ({ name: 'Ada', many: Array.from({ length: 6 }, (_, i) => KEYS(1999, i * 2000)) }),
      'The JSON body has more than 10000 values.',
    ],
  ])('refuses %s with 400, naming the limit', async (_, body, message) => {
    const res = await app.inject(request('/api/v1/probe/echo', JSON.stringify(body())));
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 400,
      body: badRequest(message),
    });
  });

  it('takes what is within the limits', async () => {
    const res = await app.inject(
      request(
        '/api/v1/probe/echo',
        JSON.stringify({
          name: 'Ada',
          junk: KEYS(2000),
          list: Array.from({ length: 2000 }, () => 1),
        }),
      ),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ name: 'Ada' });
  });

  it.each([
    ['repeated array items', () => Array.from({ length: 2000 }, () => 'ids[]=1').join('&')],
    ['repeated parameters', () => Array.from({ length: 2500 }, () => 'ids=1').join('&')],
    ['indexed items', () => Array.from({ length: 1300 }, (_, i) => `ids[${i}]=1`).join('&')],
    ['many parameters', () => Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&')],
    ['deep brackets', () => `ids${'[a]'.repeat(4000)}=1`],
  ])('reads a query string of %s at the URL limit in bounded time and size', async (_, query) => {
    const url = `/api/v1/probe/ids?${query()}`;
    expect(url.length).toBeLessThan(16 * 1024);
    const runs: number[] = [];
    for (let run = 0; run < 5; run++) {
      const { res, ms } = await timed({
        method: 'GET',
        url,
        headers: { authorization: account.authorization },
      });
      expect(res.statusCode).toBeLessThan(500);
      // qs reads at most 200 parameters (parseQuery): never a longer list.
      if (res.statusCode === 200)
        expect((res.json<{ ids?: number[] }>().ids ?? []).length).toBeLessThanOrEqual(200);
      runs.push(ms);
    }
    // The least of 5: a busy machine only adds (see the linear bodies below).
    expect(Math.min(...runs)).toBeLessThan(20);
  });

  /**
   * The most expensive bodies within the limits found (json-shape.ts): as many values as the limits
   * let through, as objects of distinct keys (what costs JSON.parse most: a few keys each, or as
   * many as one object may have), where they cost most (an attribute the DTO drops, one it keeps
   * and validates, nested DTOs, a free-form attribute a service reads). Each with the most it may
   * cost as a multiple of JSON.parse of the same body (see below): about 2.5 times what it costs
   * on a quiet machine.
   */
  type Case = [string, number, () => InjectOptions];
  const worst: Case[] = [
    ...[3, 10, 20, 2000].map((keys): Case => [
      `objects of ${keys} keys under an unknown attribute`,
      keys === 2000 ? 4 : 6,
      () => request('/api/v1/probe/echo', JSON.stringify({ name: 'Ada', junk: objects(keys) })),
    ]),
    ...[10, 2000].map((keys): Case => [
      `objects of ${keys} keys under a validated attribute`,
      keys === 2000 ? 5 : 9,
      () => request('/api/v1/probe/echo', JSON.stringify({ name: objects(keys) })),
    ]),
    [
      'a top-level object of 1000 keys of objects',
      8,
      () =>
        request(
          '/api/v1/probe/echo',
          JSON.stringify({
            name: 'Ada',
            ...Object.fromEntries(Array.from({ length: 999 }, (_, i) => [`a${i}`, KEYS(8, i * 8)])),
          }),
        ),
    ],
    [
      '2000 nested form fields',
      16,
      () =>
        request(
          '/api/v1/forms',
          JSON.stringify({
            name: 'Intake',
            fields: Array.from({ length: 2000 }, (_, i) => ({
              name: 'Q',
              type: 'textbox',
              ...KEYS(1, i),
            })),
          }),
        ),
    ],
    [
      'calendar overrides of 1000 dates',
      8,
      () =>
        request(
          `/api/v1/calendars/${calendarID}`,
          JSON.stringify({
            overrides: Object.fromEntries(
              Array.from({ length: 1000 }, (_, i) => [`2030-01-${i}`, KEYS(8, i * 8)]),
            ),
          }),
          'PUT',
        ),
    ],
  ];

  /**
   * Linear: the whole request (parse, shape check, validation, the handler) costs at most its
   * multiple of JSON.parse of the same body, which is linear in the body's size, measured in the
   * same process and turns (a bound in ms, 20, failed on CI's busy cores at 23 ms). Quiet, the
   * multiples are 1.6 (objects of 2000 keys) to 6.5 (2000 nested form fields, each a validated
   * object). The quadratic transformation of issue 20 (0.24 s at 10,000 keys) would add ~10 ms to
   * each object of 2000 keys: a multiple of ~10 where 4 is allowed.
   *
   * Each cost is the least of 7 runs: what a busy machine adds (another process on the core, a
   * collection of the worker's heap) only ever adds, so the least run is the cost itself (a
   * median of 7 failed once in CI at a multiple over 6 that is 2.4 quiet). A round over its bound
   * is measured again, up to 5 rounds (3 once failed on cores busy with the rest of the suite):
   * noise passes a later round, a quadratic cost fails them all.
   * The ms are CPU, bounded too: never a frozen process.
   */
  it.each(worst)('validates %s in time linear in its size', async (_, bound, options) => {
    const sent = options();
    const payload = sent.payload as string;
    expect(payload.length).toBeLessThanOrEqual(1024 * 1024);
    await app.inject(sent); // warm-up
    let verdict = { multipleOfParse: false, cpuMs: false };
    for (let round = 0; round < 5 && !(verdict.multipleOfParse && verdict.cpuMs); round++) {
      const requests: number[] = [];
      const parses: number[] = [];
      for (let run = 0; run < 7; run++) {
        const { res, ms } = await cpuOf(sent);
        expect(res.statusCode).toBeLessThan(500);
        requests.push(ms);
        parses.push(parseCpuOf(payload));
      }
      const request = Math.min(...requests);
      verdict = {
        multipleOfParse: request / Math.min(...parses) < bound,
        cpuMs: request < 100,
      };
    }
    expect(verdict).toEqual({ multipleOfParse: true, cpuMs: true });
  });
});

/** The CPU time (ms) of JSON.parse of `payload`: the linear cost the requests are held to. */
function parseCpuOf(payload: string): number {
  const before = process.cpuUsage();
  JSON.parse(payload);
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
}
