/*
 * WCAG 2.x contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio): the relative luminance of
 * an sRGB colour, and the ratio of two luminances, from 1:1 (the same) to 21:1 (black on white).
 */

/** `#rrggbb`: six hexadecimal digits, either case. */
export const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** The least contrast WCAG AA asks of normal-size text against its background. */
export const MIN_TEXT_CONTRAST = 4.5;

/** One channel (0–255) of an sRGB colour, linearised as WCAG 2.x defines it. */
function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** The relative luminance of `#rrggbb`: 0 for black, 1 for white. */
export function relativeLuminance(hex: string): number {
  if (!HEX_COLOR.test(hex)) throw new RangeError(`not a #rrggbb colour: ${JSON.stringify(hex)}`);
  const [r, g, b] = [1, 3, 5].map((at) => linear(parseInt(hex.slice(at, at + 2), 16)));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two `#rrggbb` colours, whichever is lighter: 1 to 21. */
export function contrastRatio(hexA: string, hexB: string): number {
  const [a, b] = [relativeLuminance(hexA), relativeLuminance(hexB)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
