import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  IsEmailAddress,
  IsMultiLine,
  IsNotBlank,
  IsPhone,
  IsSingleLine,
  Optional,
  Trim,
} from '../../common/http/attributes';
import { IsId } from '../../common/http/id-attribute';
import { IdQuery } from '../../common/http/id-list';
import { requiredParameter } from '../../common/http/required-parameter';

/** A name of the buyer: trimmed, one line of at most 255 characters. */
const IsPersonName = () =>
  applyDecorators(IsString(), MaxLength(255), IsNotBlank(), IsSingleLine(), Trim());

export class CreateOrderRequest {
  @IsId()
  @IsDefined(requiredParameter('productID'))
  productID!: number;

  @IsPersonName()
  firstName!: string;

  @IsPersonName()
  lastName!: string;

  @Trim()
  @IsEmailAddress()
  @MaxLength(254)
  @IsNotBlank()
  email!: string;

  @Trim()
  @Optional()
  @IsPhone()
  @MaxLength(64)
  @IsString()
  phone?: string;

  @Optional()
  @IsMultiLine()
  @MaxLength(4000)
  @IsString()
  notes?: string;
}

export class ListOrdersRequest {
  @IdQuery()
  @Optional()
  @Max(1000)
  @Min(1)
  @IsInt()
  max?: number;
}
