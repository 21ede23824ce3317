import { NUMERIC, RouteCatalog, editDistance } from './route-catalog';

describe('RouteCatalog', () => {
  const catalog = new RouteCatalog('/api/v1');
  for (const [method, url] of [
    ['GET', '/api/v1/me'],
    ['HEAD', '/api/v1/me'],
    ['GET', '/api/v1/appointments'],
    ['POST', '/api/v1/appointments'],
    ['GET', `/api/v1/appointments/:id${NUMERIC}`],
    ['PUT', `/api/v1/appointments/:id${NUMERIC}`],
    ['PUT', `/api/v1/appointments/:id${NUMERIC}/cancel`],
    ['GET', '/api/v1/appointment-types'],
    ['GET', '/api/v1/availability/times'],
    ['GET', '/api/v1/availability/dates'],
    ['GET', '/health/live'],
  ] as const) {
    catalog.add(method, url);
  }

  it.each([
    ['/api/v1/appointment/5', '/appointments/{id:number}'],
    ['/api/v1/appointments/abc', '/appointments/{id:number}'],
    ['/api/v1/apointments/12', '/appointments/{id:number}'],
    ['/api/v1/appointment', '/appointments'],
    ['/api/v1/appointment-type', '/appointment-types'],
    ['/api/v1/availability/time', '/availability/times'],
    ['/api/v1/appointments/abc/cancel', '/appointments/{id:number}/cancel'],
    ['/api/v1/mee', '/me'],
  ])('suggests %s → %s', (path, suggestion) => {
    expect(catalog.suggest(path)).toBe(suggestion);
  });

  it.each([
    ['/api/v1/something-else'],
    ['/api/v1/calendars/5'],
    ['/api/v1/appointments/5/cancel/now'],
    ['/elsewhere/appointments'],
    ['/api/v1/appointments/5'], // exists: the resource itself is missing, nothing to suggest
  ])('suggests nothing for %s', (path) => {
    expect(catalog.suggest(path)).toBeUndefined();
  });

  it('lists the methods served at a concrete path', () => {
    expect(catalog.allowedMethods('/api/v1/me')).toEqual(['GET', 'HEAD']);
    expect(catalog.allowedMethods('/api/v1/appointments/42')).toEqual(['GET', 'PUT']);
    expect(catalog.allowedMethods('/api/v1/appointments/abc')).toEqual([]);
    expect(catalog.allowedMethods('/api/v1/appointments?max=1')).toEqual(['GET', 'POST']);
    expect(catalog.allowedMethods('/api/v1/nothing')).toEqual([]);
    expect(catalog.allowedMethods('/health/live')).toEqual([]);
  });

  it('measures edit distance', () => {
    expect(editDistance('appointment', 'appointments')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
