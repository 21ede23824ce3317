import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { findOwned } from '../../common/database/tenant-rows';
import { Appointment } from './appointment.entity';
import type { AppointmentView } from './appointment.view';
import { AppointmentViews } from './appointment-views';

/** Reading appointments. */
@Injectable()
export class AppointmentsQueries {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly views: AppointmentViews,
  ) {}

  async get(accountId: number, id: number): Promise<AppointmentView> {
    const appointment = await findOwned(this.dataSource.getRepository(Appointment), accountId, id);
    const [view] = await this.views.render([appointment]);
    return view;
  }
}
