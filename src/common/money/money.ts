/** The largest amount accepted, $9,999,999.99: its cents fit an unsigned INT, and it is round. */
export const MAX_CENTS = 9_999_999_99;

const MONEY_TEXT = /^\d{1,10}(\.\d{1,2})?$/;

/** `10`, `10.5`, `"10.50"`: a non-negative amount with at most two decimals, up to MAX_CENTS. */
export function isMoney(value: unknown): value is number | string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return false;
    const cents = value * 100;
    return Math.abs(cents - Math.round(cents)) < 1e-6 && Math.round(cents) <= MAX_CENTS;
  }
  return typeof value === 'string' && MONEY_TEXT.test(value) && toCents(value) <= MAX_CENTS;
}

/** The amount in cents, exactly (no binary floating-point drift: `0.29` → 29). */
export function toCents(value: number | string): number {
  const text = typeof value === 'number' ? value.toFixed(2) : value;
  const [units, fraction = ''] = text.split('.');
  return Number(units) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Cents as the wire shows money: `1050` → `"10.50"`. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** An amount that may be negative (a refund): `-10.5`, `"-25.00"`, `40`; as isMoney either way. */
export function isSignedMoney(value: unknown): value is number | string {
  if (typeof value === 'number') return isMoney(Math.abs(value));
  return typeof value === 'string' && isMoney(value.startsWith('-') ? value.slice(1) : value);
}

/** A signed amount in cents, exactly: `"-10.50"` → -1050. */
export function toSignedCents(value: number | string): number {
  const text = typeof value === 'number' ? value.toFixed(2) : value;
  return text.startsWith('-') ? -toCents(text.slice(1)) : toCents(text);
}

/** The rule `paid` follows: something was paid, and it covers what is due (free reads unpaid). */
export function isPaidInFull(paidCents: number, dueCents: number): boolean {
  return paidCents > 0 && paidCents >= dueCents;
}
