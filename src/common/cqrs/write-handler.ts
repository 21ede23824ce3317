import { Inject, type Type } from '@nestjs/common';
import { UnitOfWork } from '../database/unit-of-work';

/** The base of a command handler that writes `repository`'s rows in a unit of work. */
export function WriteHandler<R>(repository: Type<R>) {
  abstract class Write {
    constructor(
      @Inject(UnitOfWork) readonly unitOfWork: UnitOfWork,
      @Inject(repository) readonly rows: R,
    ) {}
  }
  return Write;
}
