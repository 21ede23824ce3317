import { ApiProperty } from '@nestjs/swagger';
import { formatCents } from '../../common/money/money';
import type { AppointmentType } from './appointment-type.entity';

/** The ids a type is linked to (live rows only), in the order the owner sees them. */
export interface AppointmentTypeLinks {
  calendarIDs: number[];
  addonIDs: number[];
  formIDs: number[];
}

/** `GET /appointment-types`, exactly as clients of the reference service know it. */
export class AppointmentTypeView implements AppointmentTypeLinks {
  @ApiProperty({ example: 12 })
  id!: number;

  @ApiProperty({ example: 'Haircut' })
  name!: string;

  @ApiProperty({
    description:
      'Offered to clients: false when the owner turned it off, or when it was deleted (as the ' +
      'reference shows deleted types).',
    example: true,
  })
  active!: boolean;

  @ApiProperty({ example: 'Wash, cut and style' })
  description!: string;

  @ApiProperty({
    description: "Minutes, a number (on appointments it is a string: the reference's quirk).",
    example: 45,
  })
  duration!: number;

  @ApiProperty({ description: 'Money with two decimals.', example: '40.00' })
  price!: string;

  @ApiProperty({ example: 'Hair' })
  category!: string;

  @ApiProperty({ example: '#E0A030' })
  color!: string;

  @ApiProperty({
    description: 'Hidden from the public scheduling page; bookable by link and through the API.',
    example: false,
  })
  private!: boolean;

  @ApiProperty({ enum: ['service', 'class'], example: 'service' })
  type!: 'service' | 'class';

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Seats of each session of a class; null for a service.',
    example: null,
  })
  classSize!: number | null;

  @ApiProperty({ description: 'Minutes.', example: 5 })
  paddingBefore!: number;

  @ApiProperty({ description: 'Minutes.', example: 10 })
  paddingAfter!: number;

  @ApiProperty({ type: [Number], example: [7, 9] })
  calendarIDs!: number[];

  @ApiProperty({ type: [Number], example: [3] })
  addonIDs!: number[];

  @ApiProperty({ type: [Number], example: [4] })
  formIDs!: number[];

  @ApiProperty({ example: 'https://img.example/haircut.png' })
  image!: string;

  @ApiProperty({ example: 'https://scheduling.example/schedule/1?appointmentType=12' })
  schedulingUrl!: string;
}

/** The management view (`GET /appointment-types/{id}`, POST, PUT): the read fields and the rules. */
export class AppointmentTypeDetails extends AppointmentTypeView {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Minutes between offered start times; null: the duration.',
    example: 15,
  })
  slotInterval!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "null: the account's setting.",
    example: null,
  })
  minHoursInAdvance!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "null: the account's setting.",
    example: null,
  })
  maxDaysInAdvance!: number | null;

  @ApiProperty({ example: false })
  requireSmsOptIn!: boolean;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "At most this many live appointments and holds of the type a local day of the booked calendar's " +
      'zone; admins are exempt. null: no limit.',
    example: 8,
  })
  maxPerDay!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'At most this many a week (ISO: Monday to Sunday), as `maxPerDay`. null: no limit.',
    example: null,
  })
  maxPerWeek!: number | null;
}

export function toAppointmentTypeView(
  type: AppointmentType,
  links: AppointmentTypeLinks,
  publicUrl: string,
): AppointmentTypeView {
  return {
    id: type.id,
    name: type.name,
    active: type.active && type.deletedAt === null,
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
    maxPerDay: type.maxPerDay,
    maxPerWeek: type.maxPerWeek,
  };
}
