import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import {
  IsMultiLine,
  IsName,
  IsNameUpdate,
  IsSingleLine,
  Optional,
  OptionalNullable,
  Trim,
} from '../../common/http/attributes';
import { FIELD_TYPES, type FieldType } from './form-field.entity';

export const MAX_FIELDS = 100;
export const MAX_OPTIONS = 100;
export const MAX_LINES = 20;

const TOO_MANY_FIELDS = {
  context: { code: 'invalid_fields', message: `A form has at most ${MAX_FIELDS} fields.` },
};

/** Options arrive trimmed, like every text attribute. */
const TrimEach = () =>
  Transform(({ value }: { value: unknown }) =>
    Array.isArray(value)
      ? value.map((item: unknown) => (typeof item === 'string' ? item.trim() : item))
      : value,
  );

/**
 * One question of a form. Every entry is the whole field: `id` (a live field of the form) keeps that
 * field and its id, no `id` adds one. Which types take `options` and `lines` is checked by
 * `fieldSettings` (form-fields.ts), where the message can name the field.
 */
export class FormFieldRequest {
  @OptionalNullable()
  @Min(1)
  @IsInt()
  id?: number | null;

  @IsName()
  name!: string;

  @IsIn(FIELD_TYPES)
  type!: FieldType;

  @Optional()
  @IsBoolean()
  required?: boolean;

  /** The choices of a dropdown or checkboxlist; `null` is what other types show, so it is accepted. */
  @TrimEach()
  @OptionalNullable()
  @ArrayUnique()
  @IsSingleLine({ each: true })
  @MaxLength(255, { each: true })
  @MinLength(1, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(MAX_OPTIONS)
  @ArrayNotEmpty()
  @IsArray()
  options?: string[] | null;

  /** Rows of a textarea. */
  @OptionalNullable()
  @Max(MAX_LINES)
  @Min(1)
  @IsInt()
  lines?: number | null;
}

export class CreateFormRequest {
  @IsName()
  name!: string;

  @Trim()
  @Optional()
  @IsMultiLine()
  @MaxLength(4000)
  @IsString()
  description?: string;

  @Optional()
  @IsBoolean()
  hidden?: boolean;

  @Optional()
  @ValidateNested({ each: true })
  @Type(() => FormFieldRequest)
  @ArrayMaxSize(MAX_FIELDS, TOO_MANY_FIELDS)
  @IsArray()
  fields?: FormFieldRequest[];
}

/** Attributes left out are kept; `fields`, when given, is the form's whole new list. */
export class UpdateFormRequest {
  @IsNameUpdate()
  name?: string;

  @Trim()
  @Optional()
  @IsMultiLine()
  @MaxLength(4000)
  @IsString()
  description?: string;

  @Optional()
  @IsBoolean()
  hidden?: boolean;

  @Optional()
  @ValidateNested({ each: true })
  @Type(() => FormFieldRequest)
  @ArrayMaxSize(MAX_FIELDS, TOO_MANY_FIELDS)
  @IsArray()
  fields?: FormFieldRequest[];
}
