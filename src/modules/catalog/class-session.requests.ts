import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';
import { IsNotBlank, IsSingleLine, Optional, Trim } from '../../common/http/attributes';
import { IsId } from '../../common/http/id-attribute';
import { IsIdList } from '../../common/http/id-list';
import { requiredParameter } from '../../common/http/required-parameter';
import { LENIENT_DATETIME_RULE } from '../../common/time/datetimes';

/* The required ids and datetime give the messages POST /appointments gives for the same ones. */
export class CreateClassSessionRequest {
  @IsId()
  @IsDefined(requiredParameter('appointmentTypeID'))
  appointmentTypeID!: number;

  @IsId()
  @IsDefined(requiredParameter('calendarID'))
  calendarID!: number;

  /** Read in the calendar's zone when it carries no offset. */
  @ApiProperty({ description: `The session's start. ${LENIENT_DATETIME_RULE}` })
  @IsString()
  @IsDefined(requiredParameter('datetime'))
  datetime!: string;

  /** Defaults to the appointment type's name. */
  @Trim()
  @Optional()
  @IsSingleLine()
  @IsNotBlank()
  @MaxLength(255)
  @IsString()
  name?: string;
}

/** `GET /classes?appointmentTypeID=&calendarID=` (each may list several ids). */
export class ListClassSessionsRequest {
  @Optional()
  @IsIdList()
  appointmentTypeID?: number[];

  @Optional()
  @IsIdList()
  calendarID?: number[];
}
