import { IsDefined, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsEmailAddress, IsNotBlank, Optional } from '../../common/http/attributes';
import { IdQuery } from '../../common/http/id-list';

const MAX_INT32 = 2_147_483_647;

export class CreateCertificateRequest {
  @Optional()
  @Max(MAX_INT32)
  @Min(1)
  @IsInt()
  productID?: number;

  @Optional()
  @Max(MAX_INT32)
  @Min(1)
  @IsInt()
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

export class CertificateQuery {
  @IdQuery()
  @Optional()
  @Min(1)
  @IsInt()
  productID?: number;

  @IdQuery()
  @Optional()
  @Min(1)
  @IsInt()
  orderID?: number;

  @IdQuery()
  @Optional()
  @Min(1)
  @IsInt()
  appointmentTypeID?: number;

  @Optional()
  @IsString()
  email?: string;
}

export class CheckCertificateQuery {
  @IsNotBlank({
    context: { code: 'required_certificate', message: 'The parameter "certificate" is required.' },
  })
  certificate!: string;

  @IdQuery()
  @Max(MAX_INT32)
  @Min(1)
  @IsInt()
  @IsDefined({
    context: {
      code: 'required_appointment_type_id',
      message: 'The parameter "appointmentTypeID" is required.',
    },
  })
  appointmentTypeID!: number;

  @Optional()
  @IsString()
  email?: string;
}
