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

const MAX_INT32 = 2_147_483_647;

export class CreateOrderRequest {
  @Max(MAX_INT32)
  @Min(1)
  @IsInt()
  @IsDefined({
    context: { code: 'required_product_id', message: 'The parameter "productID" is required.' },
  })
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

export class ListOrdersQuery {
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value,
  )
  @Optional()
  @Max(1000)
  @Min(1)
  @IsInt()
  max?: number;
}
