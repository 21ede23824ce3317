import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:public';

/** Opts a route (or a controller) out of authentication. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
