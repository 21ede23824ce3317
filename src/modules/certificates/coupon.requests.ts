import { applyDecorators } from '@nestjs/common';
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
import { CODE_PATTERN, normalizeCode } from './certificate-codes';
import { DISCOUNT_TYPES, type DiscountType } from './coupon.entity';

/** What clients type at checkout, stored normalized: `spring-10` and `SPRING-10` are one code. */
const IsCode = () =>
  applyDecorators(
    IsString(),
    Matches(CODE_PATTERN),
    OptionalNullable(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? normalizeCode(value) : value,
    ),
  );

/** The last day the coupon can be used; null = it never expires. */
const IsExpiration = () => applyDecorators(IsString(), IsCalendarDate(), OptionalNullable());

/** The attributes create and update share, validated after those each declares. */
class CouponAttributes {
  /** Empty or absent: the coupon applies to every type; an update replaces the list whole. */
  @Optional()
  @IsIdList()
  appointmentTypeIDs?: number[];

  @IsExpiration()
  expiration?: string | null;
}

export class CreateCouponRequest extends CouponAttributes {
  /** Absent or null: the coupon is handed out only as issued certificates. */
  @IsCode()
  code?: string | null;

  @IsName()
  name!: string;

  @IsIn(DISCOUNT_TYPES)
  discountType!: DiscountType;

  /** Dollars or percent; its range depends on the discount type (see checkDiscount). */
  @IsMoney()
  discountAmount!: number | string;
}

export class UpdateCouponRequest extends CouponAttributes {
  /** null removes the code. */
  @IsCode()
  code?: string | null;

  @IsNameUpdate()
  name?: string;

  @Optional()
  @IsIn(DISCOUNT_TYPES)
  discountType?: DiscountType;

  @Optional()
  @IsMoney()
  discountAmount?: number | string;
}
