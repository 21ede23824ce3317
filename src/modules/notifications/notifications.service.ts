import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { findOwned } from '../../common/database/tenant-rows';
import { Appointment } from '../availability';
import { Notification } from './notification.entity';
import { type NotificationView, toNotificationView } from './notification.view';

/** At most this many messages are listed (an appointment has a handful). */
const MAX_LISTED = 500;

@Injectable()
export class NotificationsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The messages of an appointment of the account, oldest first: what the client was told, when,
   * and what was not sent and why. Another account's appointment is 403, an unknown one 404.
   */
  async forAppointment(accountId: number, appointmentId: number): Promise<NotificationView[]> {
    const appointment = await findOwned(
      this.dataSource.getRepository(Appointment),
      accountId,
      appointmentId,
    );
    const rows = await this.dataSource.manager.find(Notification, {
      where: { appointmentId: appointment.id, accountId },
      order: { id: 'ASC' },
      take: MAX_LISTED,
    });
    return rows.map(toNotificationView);
  }
}
