import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { AppointmentsModule } from '../appointments';
import { AvailabilityModule } from '../availability';
import { CatalogModule } from '../catalog';
import { FormsModule } from '../forms';
import { HoldsModule } from '../holds';
import { AssetsController } from './assets.controller';
import { ConfirmationController } from './confirmation.controller';
import { PageCsrf } from './page-security';
import { SchedulingController } from './scheduling.controller';
import { SchedulingModels } from './scheduling-model';

/** The client pages: server-rendered HTML for the clients of the businesses (no account). */
@Module({
  imports: [
    AccountsModule,
    CatalogModule,
    FormsModule,
    AvailabilityModule,
    AppointmentsModule,
    HoldsModule,
  ],
  controllers: [SchedulingController, ConfirmationController, AssetsController],
  providers: [PageCsrf, SchedulingModels],
})
export class PagesModule {}
