import { formatCents } from '../../common/money/money';
import type { AppointmentType } from './appointment-type.entity';

/** The ids a type is linked to (live rows only), in the order the owner sees them. */
export interface AppointmentTypeLinks {
  calendarIDs: number[];
  addonIDs: number[];
  formIDs: number[];
}

/** `GET /appointment-types`, exactly as clients of the reference service know it. */
export interface AppointmentTypeView extends AppointmentTypeLinks {
  id: number;
  name: string;
  active: boolean;
  description: string;
  /** Minutes, a number (on appointments it is a string: the reference service's quirk). */
  duration: number;
  price: string;
  category: string;
  color: string;
  private: boolean;
  type: 'service' | 'class';
  classSize: number | null;
  paddingBefore: number;
  paddingAfter: number;
  image: string;
  schedulingUrl: string;
}

/** The management view (`GET /appointment-types/{id}`, POST, PUT): the read fields and the rules. */
export interface AppointmentTypeDetails extends AppointmentTypeView {
  slotInterval: number | null;
  minHoursInAdvance: number | null;
  maxDaysInAdvance: number | null;
  requireSmsOptIn: boolean;
}

export function toAppointmentTypeView(
  type: AppointmentType,
  links: AppointmentTypeLinks,
  publicUrl: string,
): AppointmentTypeView {
  return {
    id: type.id,
    name: type.name,
    active: type.active,
    description: type.description,
    duration: type.duration,
    price: formatCents(type.priceCents),
    category: type.category,
    color: type.color,
    private: type.private,
    type: type.kind,
    classSize: type.kind === 'class' ? type.classSize : null,
    paddingBefore: type.paddingBefore,
    paddingAfter: type.paddingAfter,
    calendarIDs: links.calendarIDs,
    addonIDs: links.addonIDs,
    formIDs: links.formIDs,
    image: type.image,
    schedulingUrl: `${publicUrl}/schedule/${type.accountId}?appointmentType=${type.id}`,
  };
}

export function toAppointmentTypeDetails(
  type: AppointmentType,
  links: AppointmentTypeLinks,
  publicUrl: string,
): AppointmentTypeDetails {
  return {
    ...toAppointmentTypeView(type, links, publicUrl),
    slotInterval: type.slotInterval,
    minHoursInAdvance: type.minHoursInAdvance,
    maxDaysInAdvance: type.maxDaysInAdvance,
    requireSmsOptIn: type.requireSmsOptIn,
  };
}
