import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import {
  IsMultiLine,
  IsName,
  IsNameUpdate,
  IsNotBlank,
  IsPhone,
  Optional,
  OptionalNullable,
  Trim,
} from '../../common/http/attributes';
import { IdQuery } from '../../common/http/id-list';
import { requiredParameter } from '../../common/http/required-parameter';
import { isEmailAddress } from '../../common/http/text-rules';
import { CLIENT_TEXT_LIMITS } from './client-details';

/** The owner's notes about a client: text of at most this many characters. */
const MAX_CLIENT_NOTES = 4000;
/** `GET /clients` lists at most this many (and this many when `max` is not given). */
export const MAX_CLIENT_LIST = 10_000;
/** The longest `search` text. */
const MAX_CLIENT_SEARCH = 255;

/** One e-mail address as booking accepts one (the shared text rules), or `""` (none). */
const IsEmailOrNone = () =>
  ValidateBy({
    name: 'isEmailOrNone',
    validator: {
      validate: (value: unknown) =>
        value === '' || (typeof value === 'string' && isEmailAddress(value)),
      defaultMessage: () => '$property is not an e-mail address',
    },
  });

/** `null` given for text that may be empty: `""`. */
const NullAsEmpty = () =>
  Transform(({ value }: { value: unknown }) => (value === null ? '' : value));

/** A query parameter as clients send it: an empty one (`phone=`) is one not given. */
const QueryText = () =>
  Transform(({ value }: { value: unknown }) =>
    value === '' ? undefined : typeof value === 'string' ? value.trim() : value,
  );

const NAME_RULE = 'Text of at most 255 characters (trimmed), not blank.';

/** The details a client may have none of (`""`): what each must be, and how it is checked. */
const DETAILS = {
  email: {
    rule: 'One e-mail address as booking accepts it (stored lower-cased), at most 254 characters; "" for none.',
    check: IsEmailOrNone,
    maxLength: CLIENT_TEXT_LIMITS.email,
    example: 'jane.doe@example.com',
  },
  phone: {
    rule: 'A phone number as booking accepts it (digits, spaces and + ( ) - . /, an optional ext/x extension), at most 64 characters; "" for none.',
    check: IsPhone,
    maxLength: CLIENT_TEXT_LIMITS.phone,
    example: '+1 555 0100',
  },
  notes: {
    rule: `The owner's notes about the client: text of at most ${MAX_CLIENT_NOTES} characters.`,
    check: IsMultiLine,
    maxLength: MAX_CLIENT_NOTES,
    example: undefined,
  },
};

/**
 * A detail of DETAILS, trimmed: `null` is none too, and clears it in an update (as `""`). The checks
 * run bottom-up as if stacked: the type, the length, the detail's rule.
 */
const Detail = (name: keyof typeof DETAILS, update = false) => {
  const { rule, check, maxLength, example } = DETAILS[name];
  return applyDecorators(
    IsString(),
    MaxLength(maxLength),
    check(),
    ...(update ? [Optional(), NullAsEmpty()] : [OptionalNullable()]),
    Trim(),
    update
      ? ApiPropertyOptional({
          description: `${rule} \`null\` clears ${name === 'notes' ? 'them' : 'it'} too.`,
          maxLength,
          nullable: true,
        })
      : ApiPropertyOptional({
          description: `${rule} \`null\` is none too.`,
          type: String,
          nullable: true,
          maxLength,
          ...(example === undefined ? {} : { example }),
        }),
  );
};

/** `POST /clients`: a person added to the client list by hand. */
export class CreateClientRequest {
  @ApiProperty({ description: NAME_RULE, maxLength: 255, example: 'Jane' })
  @IsName()
  firstName!: string;

  @ApiProperty({ description: NAME_RULE, maxLength: 255, example: 'Doe' })
  @IsName()
  lastName!: string;

  @Detail('email')
  email?: string | null;

  @Detail('phone')
  phone?: string | null;

  @Detail('notes')
  notes?: string | null;
}

/** `PUT /clients`: what is given changes; the names cannot be emptied. */
export class UpdateClientRequest {
  @ApiPropertyOptional({ description: `${NAME_RULE} Cannot be cleared.`, maxLength: 255 })
  @IsNameUpdate()
  firstName?: string;

  @ApiPropertyOptional({ description: `${NAME_RULE} Cannot be cleared.`, maxLength: 255 })
  @IsNameUpdate()
  lastName?: string;

  @Detail('email', true)
  email?: string;

  @Detail('phone', true)
  phone?: string;

  @Detail('notes', true)
  notes?: string;
}

/** `GET /clients?search=&max=`. */
export class ListClientsRequest {
  @ApiPropertyOptional({
    description:
      'Lists the clients whose first name, last name, full name ("Jane Doe"), e-mail or phone ' +
      'contains this text, ignoring case and accents; a search of only phone characters with ' +
      'three digits or more also matches phone numbers by their digits ("5550100" finds ' +
      '"+1 555-0100"). Empty or absent: every client.',
    maxLength: MAX_CLIENT_SEARCH,
    example: 'jane doe',
  })
  @QueryText()
  @Optional()
  @MaxLength(MAX_CLIENT_SEARCH)
  @IsString()
  search?: string;

  @ApiPropertyOptional({
    description: `At most this many clients, by last name then first name (default and largest: ${MAX_CLIENT_LIST}).`,
    type: 'integer',
    minimum: 1,
    maximum: MAX_CLIENT_LIST,
    default: MAX_CLIENT_LIST,
  })
  @IdQuery()
  @Optional()
  @Max(MAX_CLIENT_LIST)
  @Min(1)
  @IsInt()
  max?: number;
}

/** A name the query must give (missing or blank: RequiredParameterError); checked in this order. */
const RequiredName = (parameter: 'firstName' | 'lastName', example: string) =>
  applyDecorators(
    ApiProperty({
      description: `The client's ${parameter === 'firstName' ? 'first' : 'last'} name, as listed (case is ignored). Required.`,
      maxLength: CLIENT_TEXT_LIMITS[parameter],
      example,
    }),
    QueryText(),
    IsDefined(requiredParameter(parameter)),
    IsString(),
    MaxLength(CLIENT_TEXT_LIMITS[parameter]),
    IsNotBlank(requiredParameter(parameter)),
  );

/** The query of `PUT` and `DELETE /clients`: one client, named as the reference does (or by e-mail). */
export class ClientMatchRequest {
  @RequiredName('firstName', 'Jane')
  firstName!: string;

  @RequiredName('lastName', 'Doe')
  lastName!: string;

  @ApiPropertyOptional({
    description:
      'The client\'s phone, compared by its digits ("+1 (555) 010-0000" is "15550100000"). ' +
      'Needed when several clients have the name. Send "+" as %2B.',
    maxLength: CLIENT_TEXT_LIMITS.phone,
    example: '+1 555 0100',
  })
  @QueryText()
  @Optional()
  @IsPhone()
  @MaxLength(CLIENT_TEXT_LIMITS.phone)
  @IsString()
  phone?: string;

  @ApiPropertyOptional({
    description:
      "The client's e-mail (case is ignored): this service's addition, for clients of one " +
      'name who share a phone.',
    maxLength: CLIENT_TEXT_LIMITS.email,
  })
  @QueryText()
  @Optional()
  @MaxLength(CLIENT_TEXT_LIMITS.email)
  @IsString()
  email?: string;
}
