import { applyDecorators } from '@nestjs/common';
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
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IsDescription, IsIntBetweenOrNull } from '../catalog';
import {
  IsName,
  IsNameUpdate,
  IsSingleLine,
  Optional,
  OptionalNullable,
  Trim,
} from '../../common/http/attributes';
import { FIELD_TYPES, type FieldType } from './form-field.entity';

const MAX_FIELDS = 100;
const MAX_OPTIONS = 100;
const MAX_LINES = 20;

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
 * One question of a form, whole: `id` (a live field of the form) keeps that field, none adds one.
 * Which types take `options` and `lines` is checked by `fieldSettings`, which names the field.
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

  /** The choices of a dropdown or checkboxlist; `null`, what other types show, is accepted. */
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

  @IsIntBetweenOrNull(1, MAX_LINES)
  lines?: number | null;
}

/** A form's whole list of fields, each checked as a FormFieldRequest. */
const IsFieldList = () =>
  applyDecorators(
    IsArray(),
    ArrayMaxSize(MAX_FIELDS, TOO_MANY_FIELDS),
    Type(() => FormFieldRequest),
    ValidateNested({ each: true }),
    Optional(),
  );

/** The attributes create and update share (validated after `name`, which each declares). */
class FormAttributes {
  @Trim()
  @IsDescription()
  description?: string;

  @Optional()
  @IsBoolean()
  hidden?: boolean;

  @IsFieldList()
  fields?: FormFieldRequest[];
}

export class CreateFormRequest extends FormAttributes {
  @IsName()
  name!: string;
}

/** Attributes left out are kept; `fields`, when given, is the form's whole new list. */
export class UpdateFormRequest extends FormAttributes {
  @IsNameUpdate()
  name?: string;
}
