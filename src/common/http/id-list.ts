import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, Min } from 'class-validator';

/**
 * A list of ids from a query string or body in any shape clients send: `[1, 2]`, `"1,2"`, `"1"`,
 * `1`, or qs's object form for sparse indices (`{ "0": "1", "5": "2" }`). Anything that is not a
 * whole positive number is kept as given so that the DTO's validators reject it.
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
    .map((p) => {
      const text = typeof p === 'string' ? p.trim() : p;
      return typeof text === 'string' && /^\d{1,10}$/.test(text) ? Number(text) : text;
    });
}

/** Use with `@IsArray() @IsInt({ each: true })`, or use IsIdList. */
export const IdList = () => Transform(({ value }: { value: unknown }) => toIdList(value));

/**
 * A list of ids in any shape clients send (see toIdList): whole numbers from 1, at most `maxSize`
 * of them when given. Add `@Optional()` when it may be left out.
 */
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
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 && id <= 2_147_483_647
    ? id
    : undefined;
}

/** A single id in a query string (`"12"` → 12); anything else is left for `@IsInt()` to refuse. */
export const IdQuery = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value,
  );
