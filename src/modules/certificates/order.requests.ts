import { Transform } from 'class-transformer';
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
import { requiredParameter } from '../../common/http/required-parameter';

export class CreateOrderRequest {
  @IsId()
  @IsDefined(requiredParameter('productID'))
  productID!: number;

  @Trim()
  @IsSingleLine()
  @IsNotBlank({
    context: { code: 'required_first_name', message: 'Attribute "firstName" is required.' },
  })
  @MaxLength(255)
  @IsString()
  firstName!: string;

  @Trim()
  @IsSingleLine()
  @IsNotBlank({
    context: { code: 'required_last_name', message: 'Attribute "lastName" is required.' },
  })
  @MaxLength(255)
  @IsString()
  lastName!: string;

  @Trim()
  @IsEmailAddress({
    context: { code: 'invalid_email', message: 'Invalid "email" attribute value.' },
  })
  @MaxLength(254)
  @IsNotBlank({ context: { code: 'required_email', message: 'Attribute "email" is required.' } })
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
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value,
  )
  @Optional()
  @Max(1000)
  @Min(1)
  @IsInt()
  max?: number;
}
