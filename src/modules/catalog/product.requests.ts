import { IsBoolean, IsIn, ValidateBy } from 'class-validator';
import type { ErrorContext } from '../../common/http/api-validation.pipe';
import { IsMoney, IsName, IsNameUpdate, Optional } from '../../common/http/attributes';
import { IsDescription, IsIntBetweenOrNull } from './catalog-attributes';
import { PRODUCT_KINDS, type ProductKind } from './product.entity';

/** Longest a certificate issued from a product may stay valid: ten years. */
const MAX_EXPIRES_DAYS = 3650;
const MAX_TYPE_COUNT = 1000;

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

/** The attributes create and update share, validated after those each declares. */
class ProductAttributes {
  @Optional()
  @IsBoolean()
  hidden?: boolean;

  /** Days a certificate issued from the product stays valid; null = it never expires. */
  @IsIntBetweenOrNull(1, MAX_EXPIRES_DAYS)
  expires?: number | null;

  /**
   * Required (non-empty) for packages and subscriptions, refused for gifts (see countsFor); an
   * update replaces the product's counts whole.
   */
  @Optional()
  @IsTypeCounts()
  appointmentTypeCounts?: TypeCounts;
}

export class CreateProductRequest extends ProductAttributes {
  @IsName()
  name!: string;

  @IsDescription()
  description?: string;

  @IsMoney()
  price!: number | string;

  @IsIn(PRODUCT_KINDS)
  type!: ProductKind;
}

export class UpdateProductRequest extends ProductAttributes {
  @IsNameUpdate()
  name?: string;

  @IsDescription()
  description?: string;

  @Optional()
  @IsMoney()
  price?: number | string;

  @Optional()
  @IsIn(PRODUCT_KINDS)
  type?: ProductKind;
}
