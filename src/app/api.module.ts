import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { HealthModule } from '../common/health/health.module';
import { ApiMetricsModule } from '../common/metrics/metrics.module';
import { LimitsModule } from '../common/limits/limits.module';
import { OutboxModule } from '../common/outbox/outbox.module';
import { AccountsModule } from '../modules/accounts/accounts.module';
import { AppointmentsModule } from '../modules/appointments/appointments.module';
import { AvailabilityModule } from '../modules/availability/availability.module';
import { CatalogModule } from '../modules/catalog/catalog.module';
import { CertificatesModule } from '../modules/certificates/certificates.module';
import { FormsModule } from '../modules/forms/forms.module';
import { NotificationsModule } from '../modules/notifications/notifications.module';
import { OAuthModule } from '../modules/oauth/oauth.module';
import { WebhooksModule } from '../modules/webhooks/webhooks.module';
import { ApiAuthGuard } from '../modules/accounts/api-auth.guard';
import { CoreModule, type CoreOptions, QueueModule } from './core.module';

/** The API process: HTTP routes; it produces jobs but consumes none. */
@Module({})
export class ApiModule {
  static forRoot(options: CoreOptions): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        CoreModule.forRoot(options),
        QueueModule.forRoot(options.config),
        HealthModule,
        ApiMetricsModule,
        LimitsModule,
        OutboxModule,
        AccountsModule,
        CatalogModule,
        AvailabilityModule,
        CertificatesModule,
        AppointmentsModule,
        FormsModule,
        WebhooksModule,
        NotificationsModule,
        OAuthModule,
      ],
      providers: [{ provide: APP_GUARD, useClass: ApiAuthGuard }],
    };
  }
}
