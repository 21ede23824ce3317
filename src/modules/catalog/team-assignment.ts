import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, ValidateBy } from 'class-validator';
import { Optional, OptionalNullable } from '../../common/http/attributes';

/* How a booking that names no calendar picks one of its type's (docs/team-scheduling.md). */

export const ASSIGNMENTS = ['first', 'round-robin', 'balanced'] as const;
export type Assignment = (typeof ASSIGNMENTS)[number];

/** A calendar's weight: its share of a type's bookings against the others' (1 to 100, default 1). */
export const MIN_WEIGHT = 1;
export const MAX_WEIGHT = 100;

/** `{"<calendarID>": weight}`: calendars left out weigh 1. */
export type AssignmentWeights = Record<string, number>;

/** As many as a type's calendars may be (appointment-type.requests.ts: MAX_LINKS). */
const MAX_WEIGHTED = 100;

export function isAssignmentWeights(value: unknown): value is AssignmentWeights {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value as Record<string, unknown>);
  return (
    entries.length <= MAX_WEIGHTED &&
    entries.every(
      ([id, weight]) =>
        /^[1-9][0-9]{0,9}$/.test(id) &&
        Number.isInteger(weight) &&
        (weight as number) >= MIN_WEIGHT &&
        (weight as number) <= MAX_WEIGHT,
    )
  );
}

/** A calendar's weight in `weights` (1 when left out, or when there are none). */
export function weightOf(weights: AssignmentWeights | null, calendarId: number): number {
  return weights?.[String(calendarId)] ?? MIN_WEIGHT;
}

export const ASSIGNMENT_DESCRIPTION =
  'How a booking that names no calendar picks one of the free calendars: `first` (the default) the ' +
  'lowest id; `round-robin` the one that has gone longest without an appointment of the type, in ' +
  'proportion to `weights`; `balanced` the one with the fewest appointments of the type in the ' +
  "booking's ISO week (in its zone), per unit of weight. Ties: the heavier, then the lower id. " +
  'A booking that names its calendar is not assigned.';

/** An appointment type's `assignment`. */
export function AssignmentAttribute(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ enum: [...ASSIGNMENTS], description: ASSIGNMENT_DESCRIPTION }),
    Optional(),
    IsIn([...ASSIGNMENTS]),
  );
}

/** `weights` as requests take it and the type's details show it. */
export const WEIGHTS_SCHEMA = {
  type: 'object' as const,
  nullable: true,
  additionalProperties: { type: 'integer', minimum: MIN_WEIGHT, maximum: MAX_WEIGHT },
  example: { '12': 2, '13': 1 },
  description:
    "Each calendar's weight (1 to 100) for `round-robin` and `balanced`: a calendar of weight " +
    '2 takes twice the share of one of weight 1. Calendars left out weigh 1; keys must be ' +
    'calendars of the type (a calendar unlinked from the type loses its weight). null: all 1.',
};

export const WEIGHTS_MESSAGE =
  `The weights must be {"calendarID": ${MIN_WEIGHT} to ${MAX_WEIGHT}, …} ` +
  'for calendars of the type, or null.';

/** An appointment type's `weights` (null: every calendar weighs 1). */
export function WeightsAttribute(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(WEIGHTS_SCHEMA),
    OptionalNullable(),
    ValidateBy(
      {
        name: 'isAssignmentWeights',
        validator: { validate: isAssignmentWeights, defaultMessage: () => WEIGHTS_MESSAGE },
      },
      { context: { code: 'invalid_weights', message: WEIGHTS_MESSAGE } },
    ),
  );
}

/** `weights` keeping only `calendarIds`' entries (null when none is left). */
export function weightsOf(
  weights: AssignmentWeights | null,
  calendarIds: number[],
): AssignmentWeights | null {
  if (!weights) return null;
  const kept = calendarIds.filter((id) => weights[String(id)] !== undefined);
  return kept.length === 0 ? null : Object.fromEntries(kept.map((id) => [String(id), weights[id]]));
}
