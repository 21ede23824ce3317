import { IsDefined, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsNotBlank, IsSingleLine, Optional, Trim } from '../../common/http/attributes';
import { IsIdList } from '../../common/http/id-list';

const MAX_INT32 = 2_147_483_647;

/* The required ids and datetime give the messages POST /appointments gives for the same attributes. */
export class CreateClassSessionRequest {
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

  @Max(MAX_INT32)
  @Min(1)
  @IsInt()
  @IsDefined({
    context: { code: 'required_calendar_id', message: 'The parameter "calendarID" is required.' },
  })
  calendarID!: number;

  /** Read in the calendar's zone when it carries no offset. */
  @IsString()
  @IsDefined({
    context: { code: 'required_datetime', message: 'The parameter "datetime" is required.' },
  })
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
export class ListClassSessionsQuery {
  @Optional()
  @IsIdList()
  appointmentTypeID?: number[];

  @Optional()
  @IsIdList()
  calendarID?: number[];
}
