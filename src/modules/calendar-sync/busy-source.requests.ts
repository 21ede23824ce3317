import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, MaxLength } from 'class-validator';
import { IsNotBlank, IsSingleLine, Optional, Trim } from '../../common/http/attributes';
import { requiredParameter } from '../../common/http/required-parameter';
import { BUSY_SOURCE_TYPES, type BusySourceType } from './busy-source.entity';
import { INVALID_SOURCE_TYPE } from './calendar-sync.errors';

/**
 * `POST /calendars/{id}/busy-sources`. The URL's policy (scheme, port, address) is checked by the
 * service, with the webhooks' rules.
 */
export class CreateBusySourceRequest {
  @ApiProperty({
    enum: BUSY_SOURCE_TYPES,
    description: '`ics`: an iCalendar feed URL; `caldav`: a CalDAV calendar collection URL.',
  })
  @IsIn(BUSY_SOURCE_TYPES, INVALID_SOURCE_TYPE)
  @IsDefined(requiredParameter('type'))
  type!: BusySourceType;

  @ApiProperty({
    description:
      'http(s) on port 443 or 80 (or a port the operator allows), never a private or loopback ' +
      'address unless the operator allows them; at most 2048 characters.',
    example: 'https://caldav.example.com/dav/calendars/jane/work/',
  })
  @Trim()
  @IsNotBlank(requiredParameter('url'))
  @IsString()
  @IsDefined(requiredParameter('url'))
  url!: string;

  /** HTTP Basic user name (CalDAV servers, private feeds); "" or absent for none. */
  @ApiPropertyOptional({ maxLength: 255, example: 'jane' })
  @Optional()
  @IsSingleLine()
  @MaxLength(255)
  @IsString()
  username?: string;

  /** Its password (an app password); stored sealed, never shown. */
  @ApiPropertyOptional({
    maxLength: 1000,
    writeOnly: true,
    description: 'Stored sealed; never shown.',
  })
  @Optional()
  @IsSingleLine()
  @MaxLength(1000)
  @IsString()
  password?: string;
}
