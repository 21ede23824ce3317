import {
  type ArgumentMetadata,
  Injectable,
  ValidationPipe,
  type ValidationError,
} from '@nestjs/common';
import { ExpectedJsonObjectError, InvalidAttributeError } from '../errors/domain-error';
import {
  InvalidAttributeValueError,
  RequiredAttributeError,
  UnclearableAttributeError,
  UnnamedAttributeError,
} from './http.errors';
import { declaredOnly, requestDtoTransformer } from './request-dto-transformer';

/**
 * What a DTO attaches to a constraint to choose its error:
 * `@IsNotEmpty({ context: { code: 'required_first_name', message: 'Attribute "firstName" is required.' } })`.
 */
export interface ErrorContext {
  code: string;
  message: string;
}

const REQUIRED = new Set(['isDefined', 'isNotEmpty', 'isNotBlank']);

/** The first failure of the first invalid attribute, in declaration order. */
function firstFailure(
  errors: ValidationError[],
  path: string[] = [],
): { path: string[]; error: ValidationError } | undefined {
  for (const error of errors) {
    if (error.constraints && Object.keys(error.constraints).length > 0)
      return { path: [...path, error.property], error };
    const nested = firstFailure(error.children ?? [], [...path, error.property]);
    if (nested) return nested;
  }
  return undefined;
}

/** `fields.0.value` for a nested attribute; the code is named after the top-level attribute. */
export function toInvalidAttribute(errors: ValidationError[]): InvalidAttributeError {
  const failure = firstFailure(errors);
  if (!failure) return new UnnamedAttributeError();
  const { path, error } = failure;
  const constraint = Object.keys(error.constraints ?? {})[0];
  const context = error.contexts?.[constraint] as ErrorContext | undefined;
  // The DTO chose the error: its code and message are the constraint's context.
  if (context) return new InvalidAttributeError(context.code, context.message);
  if (constraint === 'isNotCleared') return new UnclearableAttributeError(path);
  return REQUIRED.has(constraint) || error.value === undefined
    ? new RequiredAttributeError(path)
    : new InvalidAttributeValueError(path);
}

/**
 * Validates request DTOs (bodies and query strings) into the contract's errors. Unknown attributes are
 * dropped (never reach an entity); a body a DTO expects must be a JSON object. DTOs are built by
 * requestDtoTransformer, in time linear in what they keep.
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: false,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      validationError: { target: false, value: true },
      exceptionFactory: toInvalidAttribute,
      transformerPackage: requestDtoTransformer,
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && this.expectsObject(metadata) && !isPlainObject(value)) {
      throw new ExpectedJsonObjectError();
    }
    // What the DTO does not declare is dropped now, before the pipe walks the value.
    const kept = this.toValidate(metadata) ? declaredOnly(metadata.metatype, value) : value;
    return super.transform(kept, metadata);
  }

  /**
   * Off: a body here is JSON.parse's and a query qs's, which hold no binary value (a Buffer comes
   * from multipart or socket.io) and no array with gaps (JSON has none; qs closes them). Both walks
   * cost ~2-3 µs per nested DTO (about 5 ms for 2000), for nothing.
   */
  protected override findNestedBinaryValues(): ValidationError[] {
    return [];
  }

  protected override closeArrayGaps(): void {}

  private expectsObject(metadata: ArgumentMetadata): boolean {
    const type = metadata.metatype;
    return !!type && !metadata.data && type !== Array && this.toValidate(metadata);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
