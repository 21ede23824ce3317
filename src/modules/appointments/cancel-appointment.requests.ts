import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { IfGiven, IsMultiLine } from '../../common/http/attributes';

export const MAX_CANCEL_NOTE = 4000;

/** `PUT /appointments/{id}/cancel`. */
export class CancelAppointmentRequest {
  /** Why it was canceled (stored, shown to the owner). */
  @IfGiven(IsMultiLine(), MaxLength(MAX_CANCEL_NOTE), IsString())
  cancelNote?: string;

  /** Admins only (ignored otherwise): the client did not come. */
  @IfGiven(IsBoolean())
  noShow?: boolean;
}
