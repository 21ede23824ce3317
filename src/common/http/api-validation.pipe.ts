import {
  type ArgumentMetadata,
  Injectable,
  ValidationPipe,
  type ValidationError,
} from '@nestjs/common';
import { BoundedMap } from '../cache/bounded-map';
import { ExpectedJsonObjectError, InvalidAttributeError } from '../errors/domain-error';
import {
  InvalidAttributeValueError,
  RequiredAttributeError,
  UnclearableAttributeError,
  UnnamedAttributeError,
} from './http.errors';
import { declaredOnly, isPlainObject, requestDtoTransformer } from './request-dto-transformer';

/** What a DTO attaches to a constraint to choose its error: `{ context: { code, message } }`. */
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
  if (context) return new InvalidAttributeError(context.code, context.message);
  if (constraint === 'isNotCleared') return new UnclearableAttributeError(path);
  return REQUIRED.has(constraint) || error.value === undefined
    ? new RequiredAttributeError(path)
    : new InvalidAttributeValueError(path);
}

/**
 * Validates request DTOs (bodies and query strings) into the contract's errors. Unknown attributes
 * are dropped; a body a DTO expects must be a JSON object.
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

  private readonly validQueries = new Map<unknown, Map<string, object>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && this.expectsObject(metadata) && !isPlainObject(value)) {
      throw new ExpectedJsonObjectError();
    }
    if (metadata.type === 'query' && isPlainObject(value) && this.toValidate(metadata))
      return this.validQuery(value, metadata);
    return this.validated(value, metadata);
  }

  private validated(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // What the DTO does not declare is dropped now, before the pipe walks the value.
    const kept = this.toValidate(metadata) ? declaredOnly(metadata.metatype, value) : value;
    return super.transform(kept, metadata);
  }

  /**
   * A query string's DTO, kept for a valid query and served as a copy: validation is a pure
   * function of the value (no rule reads the clock or any state). Only flat DTOs are kept (a copy
   * could not protect a nested object); an invalid query is validated every time.
   */
  private async validQuery(
    value: Record<string, unknown>,
    metadata: ArgumentMetadata,
  ): Promise<unknown> {
    const key = JSON.stringify(value);
    if (key.length > MEMO_KEY_CHARS) return this.validated(value, metadata);
    let memo = this.validQueries.get(metadata.metatype);
    const known = memo?.get(key);
    if (known !== undefined) return copyOf(known);
    const dto = await this.validated(value, metadata);
    if (!isFlat(dto)) return dto;
    if (memo === undefined)
      this.validQueries.set(
        metadata.metatype,
        (memo = new BoundedMap<string, object>(MEMO_ENTRIES)),
      );
    memo.set(key, copyOf(dto));
    return dto;
  }

  /**
   * Off: JSON.parse and qs give no binary value and no array with gaps; both walks cost ~2-3 µs per
   * nested DTO, for nothing.
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

const MEMO_ENTRIES = 1000;
const MEMO_KEY_CHARS = 1024;

/** An object whose values are primitives or arrays of primitives. */
function isFlat(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  for (const item of Object.values(value))
    if (Array.isArray(item) ? item.some(isObject) : isObject(item)) return false;
  return true;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

/** A copy of a flat DTO: same class, its arrays copied. */
function copyOf<T extends object>(dto: T): T {
  const copy = Object.create(Object.getPrototypeOf(dto) as object | null) as Record<
    string,
    unknown
  >;
  for (const [name, item] of Object.entries(dto))
    copy[name] = Array.isArray(item) ? [...(item as unknown[])] : item;
  return copy as T;
}
