import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, Min } from 'class-validator';

/** Digits (`"12"`, at most 10) as their number; anything else as it is, for the validators. */
const digitsAsNumber = (value: unknown): unknown =>
  typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;

/**
 * A list of ids in any shape clients send: `[1, 2]`, `"1,2"`, `"1"`, `1`, or qs's object form for
 * sparse indices (`{ "0": "1", "5": "2" }`). What is not a whole number is kept for the validators.
 */
export function toIdList(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return value === '' ? [] : value;
  const parts: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'object'
      ? Object.values(value)
      : typeof value === 'string'
        ? value.split(',')
        : [value];
  return parts
    .flatMap((p) => (typeof p === 'string' && p.includes(',') ? p.split(',') : [p]))
    .map((p) => digitsAsNumber(typeof p === 'string' ? p.trim() : p));
}

/** Use with `@IsArray() @IsInt({ each: true })`, or use IsIdList. */
export const IdList = () => Transform(({ value }: { value: unknown }) => toIdList(value));

/** A list of ids (see toIdList): whole numbers from 1, at most `maxSize` of them when given. */
export const IsIdList = (options: { maxSize?: number } = {}) =>
  applyDecorators(
    IdList(),
    IsArray(),
    IsInt({ each: true }),
    Min(1, { each: true }),
    ...(options.maxSize === undefined ? [] : [ArrayMaxSize(options.maxSize)]),
  );

/** An id as clients send it: a whole number from 1 to 2^31 - 1, or its digits; else undefined. */
export function toId(value: unknown): number | undefined {
  const id = digitsAsNumber(value);
  return typeof id === 'number' && Number.isInteger(id) && id > 0 && id <= 2_147_483_647
    ? id
    : undefined;
}

/** A single id in a query string (`"12"` → 12); anything else is left for `@IsInt()` to refuse. */
export const IdQuery = () => Transform(({ value }: { value: unknown }) => digitsAsNumber(value));
