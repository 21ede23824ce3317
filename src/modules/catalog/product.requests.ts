import { IsBoolean, IsIn, IsInt, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import type { ErrorContext } from '../../common/http/api-validation.pipe';
import {
  IsMoney,
  IsMultiLine,
  IsName,
  IsNameUpdate,
  Optional,
  OptionalNullable,
} from '../../common/http/attributes';
import { PRODUCT_KINDS, type ProductKind } from './product.entity';

/** Longest a certificate issued from a product may stay valid: ten years. */
export const MAX_EXPIRES_DAYS = 3650;
export const MAX_TYPE_COUNT = 1000;

/** `{"<appointment type id>": <appointments of that type the product gives>}`. */
export type TypeCounts = Record<string, number>;

const TYPE_ID_KEY = /^[1-9]\d{0,9}$/;

function isTypeCounts(value: unknown): value is TypeCounts {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([key, count]) =>
      TYPE_ID_KEY.test(key) && Number.isInteger(count) && count >= 1 && count <= MAX_TYPE_COUNT,
  );
}

const COUNTS_ERROR: ErrorContext = {
  code: 'invalid_appointment_type_counts',
  message: `Attribute "appointmentTypeCounts" must map appointment type ids to counts from 1 to ${MAX_TYPE_COUNT}.`,
};

/**
 * Keys are checked as ids here; whether they are live types of the account is the commands'. (The
 * default message must not be empty: class-validator attaches the context only to a truthy one.)
 */
const IsTypeCounts = () =>
  ValidateBy(
    {
      name: 'isTypeCounts',
      validator: { validate: isTypeCounts, defaultMessage: () => COUNTS_ERROR.message },
    },
    { context: COUNTS_ERROR },
  );

export class CreateProductRequest {
  @IsName()
  name!: string;

  @Optional()
  @IsMultiLine()
  @MaxLength(4000)
  @IsString()
  description?: string;

  @IsMoney()
  price!: number | string;

  @IsIn(PRODUCT_KINDS)
  type!: ProductKind;

  @Optional()
  @IsBoolean()
  hidden?: boolean;

  /** Days a certificate issued from the product stays valid; null = it never expires. */
  @OptionalNullable()
  @Max(MAX_EXPIRES_DAYS)
  @Min(1)
  @IsInt()
  expires?: number | null;

  /** Required (non-empty) for packages and subscriptions, refused for gifts: see ProductsService. */
  @Optional()
  @IsTypeCounts()
  appointmentTypeCounts?: TypeCounts;
}

export class UpdateProductRequest {
  @IsNameUpdate()
  name?: string;

  @Optional()
  @IsMultiLine()
  @MaxLength(4000)
  @IsString()
  description?: string;

  @Optional()
  @IsMoney()
  price?: number | string;

  @Optional()
  @IsIn(PRODUCT_KINDS)
  type?: ProductKind;

  @Optional()
  @IsBoolean()
  hidden?: boolean;

  @OptionalNullable()
  @Max(MAX_EXPIRES_DAYS)
  @Min(1)
  @IsInt()
  expires?: number | null;

  /** Replaces the product's counts whole. */
  @Optional()
  @IsTypeCounts()
  appointmentTypeCounts?: TypeCounts;
}
