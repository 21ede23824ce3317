import { Controller, Get } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { NOTIFICATION_VIEW, type NotificationView } from './notification.view';
import { ListAppointmentNotificationsQuery } from './notification.queries';
import { ApiView } from '../../common/openapi/view-schema';

/** The client messages of an appointment, for its admins (this service's own endpoint). */
@ApiTags('appointments')
@ApiBasicAuth()
@Controller('appointments')
export class NotificationsController extends BusController {
  @ApiOperation({
    summary: "An appointment's client messages (e-mail, SMS): sent, pending, failed or skipped",
  })
  @ApiView(NOTIFICATION_VIEW, { list: true })
  @Get(`:id${NUMERIC}/notifications`)
  list(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<NotificationView[]> {
    return this.queries.execute(new ListAppointmentNotificationsQuery(accountId, id));
  }
}
