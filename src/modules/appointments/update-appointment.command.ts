import { AppointmentChangeCommand } from './appointment-changes';
import type { UpdateAppointmentRequest } from './update-appointment.requests';

export class UpdateAppointmentCommand extends AppointmentChangeCommand<
  UpdateAppointmentRequest,
  { admin: boolean }
> {}
