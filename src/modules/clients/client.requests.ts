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
export const MAX_CLIENT_NOTES = 4000;
/** `GET /clients` lists at most this many (and this many when `max` is not given). */
export const MAX_CLIENT_LIST = 10_000;
/** The longest `search` text. */
export const MAX_CLIENT_SEARCH = 255;

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
const EMAIL_RULE =
  'One e-mail address as booking accepts it (stored lower-cased), at most 254 characters; "" for none.';
const PHONE_RULE =
  'A phone number as booking accepts it (digits, spaces and + ( ) - . /, an optional ext/x extension), at most 64 characters; "" for none.';
const NOTES_RULE = `The owner's notes about the client: text of at most ${MAX_CLIENT_NOTES} characters.`;

/** `POST /clients`: a person added to the client list by hand. */
export class CreateClientRequest {
  @ApiProperty({ description: NAME_RULE, maxLength: 255, example: 'Jane' })
  @IsName()
  firstName!: string;

  @ApiProperty({ description: NAME_RULE, maxLength: 255, example: 'Doe' })
  @IsName()
  lastName!: string;

  @ApiPropertyOptional({
    description: `${EMAIL_RULE} \`null\` is none too.`,
    type: String,
    nullable: true,
    maxLength: CLIENT_TEXT_LIMITS.email,
    example: 'jane.doe@example.com',
  })
  @Trim()
  @OptionalNullable()
  @IsEmailOrNone()
  @MaxLength(CLIENT_TEXT_LIMITS.email)
  @IsString()
  email?: string | null;

  @ApiPropertyOptional({
    description: `${PHONE_RULE} \`null\` is none too.`,
    type: String,
    nullable: true,
    maxLength: CLIENT_TEXT_LIMITS.phone,
    example: '+1 555 0100',
  })
  @Trim()
  @OptionalNullable()
  @IsPhone()
  @MaxLength(CLIENT_TEXT_LIMITS.phone)
  @IsString()
  phone?: string | null;

  @ApiPropertyOptional({
    description: `${NOTES_RULE} \`null\` is none too.`,
    type: String,
    nullable: true,
    maxLength: MAX_CLIENT_NOTES,
  })
  @Trim()
  @OptionalNullable()
  @IsMultiLine()
  @MaxLength(MAX_CLIENT_NOTES)
  @IsString()
  notes?: string | null;
}

/**
 * `PUT /clients`: what is given changes; the names cannot be emptied, `""` or `null` clears the
 * e-mail, phone or notes.
 */
export class UpdateClientRequest {
  @ApiPropertyOptional({ description: `${NAME_RULE} Cannot be cleared.`, maxLength: 255 })
  @IsNameUpdate()
  firstName?: string;

  @ApiPropertyOptional({ description: `${NAME_RULE} Cannot be cleared.`, maxLength: 255 })
  @IsNameUpdate()
  lastName?: string;

  @ApiPropertyOptional({
    description: `${EMAIL_RULE} \`null\` clears it too.`,
    maxLength: CLIENT_TEXT_LIMITS.email,
    nullable: true,
  })
  @Trim()
  @NullAsEmpty()
  @Optional()
  @IsEmailOrNone()
  @MaxLength(CLIENT_TEXT_LIMITS.email)
  @IsString()
  email?: string;

  @ApiPropertyOptional({
    description: `${PHONE_RULE} \`null\` clears it too.`,
    maxLength: CLIENT_TEXT_LIMITS.phone,
    nullable: true,
  })
  @Trim()
  @NullAsEmpty()
  @Optional()
  @IsPhone()
  @MaxLength(CLIENT_TEXT_LIMITS.phone)
  @IsString()
  phone?: string;

  @ApiPropertyOptional({
    description: `${NOTES_RULE} \`null\` clears them too.`,
    maxLength: MAX_CLIENT_NOTES,
    nullable: true,
  })
  @Trim()
  @NullAsEmpty()
  @Optional()
  @IsMultiLine()
  @MaxLength(MAX_CLIENT_NOTES)
  @IsString()
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

/**
 * A name the query of `PUT` and `DELETE /clients` must give: missing or blank is
 * `required_<name>` "The parameter "firstName" is required.", a repeated one or a longer one than
 * the column `invalid_<name>`. The checks run in the order listed.
 */
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

/**
 * The query of `PUT` and `DELETE /clients`, naming one client as the reference does: first and last
 * name (required), and the phone when the name is not enough; `email` is this service's addition,
 * for people of one name who share a phone.
 */
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
