import { applyDecorators } from '@nestjs/common';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsMultiLine, Optional, OptionalNullable } from '../../common/http/attributes';

/** An optional description: text of at most 4000 characters, lines allowed. */
export const IsDescription = () =>
  applyDecorators(IsString(), MaxLength(4000), IsMultiLine(), Optional());

/** An optional integer from `min` to `max`. */
export const IsIntBetween = (min: number, max: number) =>
  applyDecorators(IsInt(), Min(min), Max(max), Optional());

/** An optional integer from `min` to `max`, or null (which clears it). */
export const IsIntBetweenOrNull = (min: number, max: number) =>
  applyDecorators(IsInt(), Min(min), Max(max), OptionalNullable());
