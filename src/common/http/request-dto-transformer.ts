import type { TransformerPackage } from '@nestjs/common/interfaces/external/transformer-package.interface';
import {
  type ClassTransformOptions,
  TransformationType,
  type TransformFnParams,
  instanceToPlain,
} from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage } from 'class-validator';

/* class-transformer's index does not export the metadata storage of @Transform and @Type. */
const storage: unknown =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('class-transformer/cjs/storage');
const transformerMetadata = (storage as { defaultMetadataStorage: MetadataStorage })
  .defaultMetadataStorage;

type DtoClass = new () => object;

interface PropertyPlan {
  /** The class of a nested DTO (`@Type(() => FormFieldRequest)`). */
  nested?: (params: { newObject: object; object: object; property: string }) => unknown;
  transforms: ((params: TransformFnParams) => unknown)[];
}

const plans = new WeakMap<DtoClass, Map<string, PropertyPlan>>();

/**
 * The properties of `target` class-validator has rules for (the pipe's `whitelist` drops the
 * others), each with its @Type and its @Transform functions (without groups: the pipe uses none).
 */
function planOf(target: DtoClass): Map<string, PropertyPlan> {
  let plan = plans.get(target);
  if (plan) return plan;
  plan = new Map();
  // Fails loudly (every DTO's spec builds it) rather than ignoring what it does not implement.
  if (
    transformerMetadata.getExposedMetadatas(target).length > 0 ||
    transformerMetadata.getExcludedMetadatas(target).length > 0
  )
    throw new Error(`${target.name}: requestDtoTransformer implements no @Expose or @Exclude`);
  const rules = getMetadataStorage().getTargetValidationMetadatas(target, '', false, false);
  for (const property of new Set(rules.map((rule) => rule.propertyName))) {
    const type = transformerMetadata.findTypeMetadata(target, property);
    const transforms = transformerMetadata
      .findTransformMetadatas(target, property, TransformationType.PLAIN_TO_CLASS)
      .filter((metadata) => !metadata.options?.groups?.length)
      .map((metadata) => metadata.transformFn);
    plan.set(property, {
      nested: type ? (type.typeFunction ?? (() => type.reflectedType as unknown)) : undefined,
      transforms,
    });
  }
  plans.set(target, plan);
  return plan;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function toInstance(target: DtoClass, plain: unknown, options: ClassTransformOptions): unknown {
  if (Array.isArray(plain)) return plain.map((item) => toInstance(target, item, options));
  if (!isPlainObject(plain)) return plain;
  const plan = planOf(target);
  const instance = new target() as Record<string, unknown>;
  for (const key of Object.keys(plain)) {
    const property = plan.get(key);
    if (!property) continue;
    let value = plain[key];
    if (property.nested) {
      const type = property.nested({ newObject: instance, object: plain, property: key });
      if (isDto(type)) value = toInstance(type, value, options);
    }
    for (const transform of property.transforms)
      value = transform({
        value,
        key,
        obj: plain,
        type: TransformationType.PLAIN_TO_CLASS,
        options,
      });
    instance[key] = value;
  }
  return instance;
}

/**
 * The attributes of `plain` that `target` declares, nested DTOs' too: the others are left out
 * before ValidationPipe walks the whole body (to strip prototype keys and close array gaps).
 */
export function declaredOnly(target: unknown, plain: unknown): unknown {
  if (Array.isArray(plain)) return plain.map((item) => declaredOnly(target, item));
  if (!isDto(target) || !isPlainObject(plain)) return plain;
  const plan = planOf(target);
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(plain)) {
    const property = plan.get(key);
    if (!property) continue;
    kept[key] = property.nested
      ? declaredOnly(property.nested({ newObject: kept, object: plain, property: key }), plain[key])
      : plain[key];
  }
  return kept;
}

/** A class with validation rules (not String, Date, …). */
function isDto(type: unknown): type is DtoClass {
  return typeof type === 'function' && planOf(type as DtoClass).size > 0;
}

/**
 * class-transformer's plainToInstance for request DTOs, in time linear in what the DTO keeps
 * (class-transformer copies every value, and per object takes time in the square of its keys).
 * Undeclared attributes are left out at once, kept values are not copied, nested DTOs (@Type) are
 * built the same way, and @Transform gets class-transformer's arguments. No @Expose, @Exclude,
 * groups or versions (request-dto-transformer.spec.ts compares the two on the API's own DTOs).
 */
export const requestDtoTransformer: TransformerPackage = {
  plainToInstance: <T>(
    target: new (...args: unknown[]) => T,
    plain: unknown,
    options?: ClassTransformOptions,
  ) => toInstance(target as unknown as DtoClass, plain, options ?? {}) as T | T[],
  classToPlain: (object: unknown, options?: ClassTransformOptions) =>
    instanceToPlain(object, options) as Record<string, unknown>,
};
