import { DateTime } from 'luxon';
import { Fragment, h } from 'preact';
import { render } from 'preact-render-to-string';
import { shiftMonth, zoneOptions } from './formats';

describe('shiftMonth: the month before and after, as luxon counts', () => {
  it('matches luxon for every month of 1900–2999', () => {
    for (let index = 1900 * 12; index < 3000 * 12; index++) {
      const month = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
      const first = DateTime.fromISO(`${month}-01`, { zone: 'UTC' });
      expect([shiftMonth(month, -1), shiftMonth(month, 1)]).toEqual([
        first.minus({ months: 1 }).toFormat('yyyy-MM'),
        first.plus({ months: 1 }).toFormat('yyyy-MM'),
      ]);
    }
  });
});

describe('zoneOptions: the zone picker’s options as preact writes them', () => {
  const zones = ['UTC', ...Intl.supportedValuesOf('timeZone')];

  it.each(['UTC', 'America/New_York', 'Pacific/Wallis', 'US/Eastern', 'Not<a "zone" & more'])(
    'selects %s (first, when the list does not have it under that name)',
    (zone) => {
      const listed = zones.includes(zone) ? zones : [zone, ...zones];
      const options = listed.map((z) => h('option', { selected: z === zone }, z));
      expect(zoneOptions(zone)).toBe(render(h(Fragment, null, options)));
    },
  );
});
