import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { IsMultiLine, Optional } from '../../common/http/attributes';

export const MAX_CANCEL_NOTE = 4000;

/** `PUT /appointments/{id}/cancel`. */
export class CancelAppointmentRequest {
  /** Why it was canceled (stored, shown to the owner). */
  @Optional()
  @IsMultiLine()
  @MaxLength(MAX_CANCEL_NOTE)
  @IsString()
  cancelNote?: string;

  /** Admins only (ignored otherwise): the client did not come. */
  @Optional()
  @IsBoolean()
  noShow?: boolean;
}
