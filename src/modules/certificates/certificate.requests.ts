import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsInt, IsString, MaxLength, Min } from 'class-validator';
import { IsEmailAddress, IsNotBlank, Optional } from '../../common/http/attributes';
import { IsId } from '../../common/http/id-attribute';
import { IdQuery } from '../../common/http/id-list';
import { requiredParameter } from '../../common/http/required-parameter';

export class CreateCertificateRequest {
  @Optional()
  @IsId()
  productID?: number;

  @Optional()
  @IsId()
  couponID?: number;

  /** Whose it is: only bookings with this e-mail may use it. */
  @Optional()
  @MaxLength(254)
  @IsEmailAddress()
  @IsString()
  email?: string;

  /** The code; generated when not given. */
  @Optional()
  @IsString()
  certificate?: string;
}

/** An optional id of the query string, a whole number from 1. */
const IdFilter = () => applyDecorators(IsInt(), Min(1), Optional(), IdQuery());

export class ListCertificatesRequest {
  @IdFilter()
  productID?: number;

  @IdFilter()
  orderID?: number;

  @IdFilter()
  appointmentTypeID?: number;

  @Optional()
  @IsString()
  email?: string;
}

export class CheckCertificateRequest {
  @IsNotBlank(requiredParameter('certificate'))
  certificate!: string;

  @IdQuery()
  @IsId()
  @IsDefined(requiredParameter('appointmentTypeID'))
  appointmentTypeID!: number;

  @Optional()
  @IsString()
  email?: string;
}
