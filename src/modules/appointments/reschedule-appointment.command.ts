import { AppointmentChangeCommand } from './appointment-changes';
import type { RescheduleAppointmentRequest } from './reschedule-appointment.requests';

export class RescheduleAppointmentCommand extends AppointmentChangeCommand<RescheduleAppointmentRequest> {}
