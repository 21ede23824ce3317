import { AppointmentChangeCommand } from './appointment-changes';
import type { CancelAppointmentRequest } from './cancel-appointment.requests';

export class CancelAppointmentCommand extends AppointmentChangeCommand<CancelAppointmentRequest> {}
