import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { OptionalNullable } from '../../common/http/attributes';

/* What a series may be (docs/series.md), and what a type lets its clients book as one. */

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** 2 to 52 occurrences, the first included. */
export const MIN_COUNT = 2;
export const MAX_COUNT = 52;

/** A type's `recurrence`: the frequencies its clients may book, and at most how many occurrences. */
export interface RecurrenceSettings {
  frequencies: Frequency[];
  maxCount: number;
}

export function isRecurrenceSettings(value: unknown): value is RecurrenceSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { frequencies, maxCount, ...more } = value as Record<string, unknown>;
  return (
    Object.keys(more).length === 0 &&
    Array.isArray(frequencies) &&
    frequencies.length > 0 &&
    new Set(frequencies).size === frequencies.length &&
    frequencies.every((f) => FREQUENCIES.includes(f as Frequency)) &&
    Number.isInteger(maxCount) &&
    (maxCount as number) >= MIN_COUNT &&
    (maxCount as number) <= MAX_COUNT
  );
}

const MESSAGE =
  `The recurrence must be {"frequencies": [one or more of ${FREQUENCIES.join(', ')}], ` +
  `"maxCount": ${MIN_COUNT} to ${MAX_COUNT}}, or null.`;

/** An appointment type's `recurrence` (null: its clients book no series; an admin may). */
export function Recurrence(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'object',
      nullable: true,
      required: ['frequencies', 'maxCount'],
      properties: {
        frequencies: {
          type: 'array',
          items: { type: 'string', enum: [...FREQUENCIES] },
          minItems: 1,
          uniqueItems: true,
        },
        maxCount: { type: 'integer', minimum: MIN_COUNT, maximum: MAX_COUNT },
      },
      example: { frequencies: ['weekly'], maxCount: 12 },
      description:
        'What its clients may book as a series (POST /appointment-series, the scheduling page’s ' +
        '“repeat”): these frequencies, at most `maxCount` occurrences. null (the default): none; ' +
        'an admin may book any series.',
    }),
    OptionalNullable(),
    ValidateBy(
      {
        name: 'isRecurrenceSettings',
        validator: { validate: isRecurrenceSettings, defaultMessage: () => MESSAGE },
      },
      { context: { code: 'invalid_recurrence', message: MESSAGE } },
    ),
  );
}
