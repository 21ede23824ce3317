import { Transform } from 'class-transformer';
import { IsIn, IsString, Matches } from 'class-validator';
import {
  IsCalendarDate,
  IsMoney,
  IsName,
  IsNameUpdate,
  Optional,
  OptionalNullable,
} from '../../common/http/attributes';
import { IsIdList } from '../../common/http/id-list';
import { DISCOUNT_TYPES, type DiscountType } from './coupon.entity';

/** What clients type at checkout: stored upper-cased, so `spring-10` and `SPRING-10` are one code. */
export const COUPON_CODE = /^[A-Z0-9_-]{3,40}$/;

const CodeCase = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toUpperCase() : value,
  );

export class CreateCouponRequest {
  /** Absent or null: the coupon is handed out only as issued certificates. */
  @CodeCase()
  @OptionalNullable()
  @Matches(COUPON_CODE)
  @IsString()
  code?: string | null;

  @IsName()
  name!: string;

  @IsIn(DISCOUNT_TYPES)
  discountType!: DiscountType;

  /** Dollars or percent; its range depends on the discount type (see checkDiscount). */
  @IsMoney()
  discountAmount!: number | string;

  /** Empty or absent: the coupon applies to every type. */
  @Optional()
  @IsIdList()
  appointmentTypeIDs?: number[];

  /** The last day the coupon can be used; null = it never expires. */
  @OptionalNullable()
  @IsCalendarDate()
  @IsString()
  expiration?: string | null;
}

export class UpdateCouponRequest {
  /** null removes the code. */
  @CodeCase()
  @OptionalNullable()
  @Matches(COUPON_CODE)
  @IsString()
  code?: string | null;

  @IsNameUpdate()
  name?: string;

  @Optional()
  @IsIn(DISCOUNT_TYPES)
  discountType?: DiscountType;

  @Optional()
  @IsMoney()
  discountAmount?: number | string;

  /** Replaces the list whole; `[]` makes the coupon apply to every type. */
  @Optional()
  @IsIdList()
  appointmentTypeIDs?: number[];

  @OptionalNullable()
  @IsCalendarDate()
  @IsString()
  expiration?: string | null;
}
