import { escapeHtml } from '../../common/html/escape-html';

/* What the pages write beside dates and times (those are common/i18n's, in the client's language). */

/** The month before or after a `YYYY-MM`. */
export function shiftMonth(month: string, by: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + by;
  const year = String(Math.floor(index / 12)).padStart(4, '0');
  return `${year}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Every zone the runtime knows (Node's ICU: canonical names, no `UTC`), for the zone picker. */
const ZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone')];

const option = (zone: string, selected = false) =>
  `<option${selected ? ' selected' : ''}>${escapeHtml(zone)}</option>`;
/** The picker's options, written once: two thirds of the date step's HTML, the same every time. */
const ZONE_OPTIONS = ZONES.map((zone) => option(zone)).join('');

/** The picker's options with `zone` selected; first if the list has it under another name or not. */
export function zoneOptions(zone: string): string {
  const listed = ZONE_OPTIONS.replace(option(zone), () => option(zone, true));
  return listed === ZONE_OPTIONS ? option(zone, true) + ZONE_OPTIONS : listed;
}
