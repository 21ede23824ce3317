import { Param, ParseIntPipe } from '@nestjs/common';

/** The `:id` of a route declared with the NUMERIC pattern, as a number. */
export const IdParam = () => Param('id', ParseIntPipe);
