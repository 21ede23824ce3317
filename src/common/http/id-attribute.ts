import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';

/** The largest id there is: ids are signed 32-bit integers (2^31 - 1). */
export const MAX_ID = 2_147_483_647;

/** An id attribute: a whole number from 1 to MAX_ID (`@IdQuery()` too in a query string). */
export const IsId = () => applyDecorators(IsInt(), Min(1), Max(MAX_ID));
