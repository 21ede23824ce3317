import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiMetricsModule } from '../common/metrics/metrics.module';
import { LimitsModule } from '../common/limits/limits.module';
import { OutboxModule } from '../common/outbox/outbox.module';
import { AccountsModule, ApiAuthGuard, RevocationFeed } from '../modules/accounts';
import { AppointmentsModule } from '../modules/appointments';
import { AvailabilityModule } from '../modules/availability';
import { CalendarSyncModule } from '../modules/calendar-sync';
import { CatalogModule } from '../modules/catalog';
import { CertificatesModule } from '../modules/certificates';
import { ClientsModule } from '../modules/clients';
import { FormsModule } from '../modules/forms';
import { HoldsModule } from '../modules/holds';
import { NotificationsModule } from '../modules/notifications';
import { OAuthModule } from '../modules/oauth';
import { PagesModule } from '../modules/pages';
import { WebhooksModule } from '../modules/webhooks';
import { type CoreOptions, servingCore } from './core.module';

/**
 * The API process: HTTP routes; it produces jobs but consumes none. It alone hears revocations
 * (RevocationFeed): it alone keeps proven credentials.
 */
@Module({})
export class ApiModule {
  static forRoot(options: CoreOptions): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ...servingCore(options),
        ApiMetricsModule,
        LimitsModule,
        OutboxModule,
        AccountsModule,
        CatalogModule,
        AvailabilityModule,
        CalendarSyncModule,
        CertificatesModule,
        AppointmentsModule,
        HoldsModule,
        ClientsModule,
        FormsModule,
        WebhooksModule,
        NotificationsModule,
        OAuthModule,
        PagesModule,
      ],
      providers: [{ provide: APP_GUARD, useClass: ApiAuthGuard }, RevocationFeed],
    };
  }
}
