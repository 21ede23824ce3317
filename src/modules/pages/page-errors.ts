import { DomainError } from '../../common/errors/domain-error';
import { type Language, type MessageKey, messagesOf } from '../../common/i18n';
import { DayHoldShareError, NetworkHoldLimitError } from '../holds';

/** Where a booking's error is shown: next to a control, at the time list, or above the form. */
export type ErrorPlace = string;

export interface PageError {
  /** The control's name (`firstName`, `field:12`, `certificate`, `addonIDs`), `time` or `form`. */
  place: ErrorPlace;
  message: string;
  /** A time that could not be held but may still be booked: the page offers to go on without a hold. */
  unheld?: string;
}

const CERTIFICATE_CODES: Record<string, MessageKey> = {
  invalid_certificate: 'error.certificate.invalid',
  expired_certificate: 'error.certificate.expired',
  certificate_uses: 'error.certificate.uses',
  invalid_certificate_type: 'error.certificate.type',
};

/**
 * The typed errors of the booking and change commands, as the page shows them: next to the
 * control they concern, in words for a person, in the page's language. An error the pages have no
 * words of their own for is shown with the API's message. An error that is no DomainError is not
 * one of these: the caller lets it through (a 500).
 */
export function pageErrorOf(error: DomainError, lang: Language): PageError {
  const t = messagesOf(lang);
  const code = error.code;
  const detail = /^(required|invalid)_(first_name|last_name|email|phone)$/.exec(code);
  if (detail) {
    const place = {
      first_name: 'firstName',
      last_name: 'lastName',
      email: 'email',
      phone: 'phone',
    }[detail[2] as 'first_name' | 'last_name' | 'email' | 'phone'] as
      'firstName' | 'lastName' | 'email' | 'phone';
    return { place, message: t(`error.${place}.${detail[1] as 'required' | 'invalid'}`) };
  }
  const fieldId = (error as DomainError & { fieldId?: unknown }).fieldId;
  if ((code === 'required_field' || code === 'invalid_fields') && typeof fieldId === 'number') {
    const reason = (error as DomainError & { reason?: unknown }).reason;
    return {
      place: `field:${fieldId}`,
      message:
        code === 'required_field'
          ? t('error.field.required')
          : t('error.field.invalid', {
              reason: typeof reason === 'string' ? reason : t('error.field.invalidReason'),
            }),
    };
  }
  if (code in CERTIFICATE_CODES)
    return { place: 'certificate', message: t(CERTIFICATE_CODES[code]) };
  if (code === 'invalid_addon_ids') return { place: 'addonIDs', message: t('error.addons') };
  if (code === 'invalid_hold_token') return { place: 'time', message: t('error.holdReleased') };
  if (error instanceof DayHoldShareError) return { place: 'time', message: t('error.dayShare') };
  if (error instanceof NetworkHoldLimitError)
    return { place: 'time', message: t('error.networkLimit') };
  if (code.startsWith('not_available') || code === 'no_available_calendar')
    return { place: 'time', message: t('error.taken') };
  return { place: 'form', message: error.message };
}

/** Whether an error of a command is one to show on the page (a person's mistake or a race). */
export function isShownOnPage(error: unknown): error is DomainError {
  return error instanceof DomainError && error.status < 500;
}
