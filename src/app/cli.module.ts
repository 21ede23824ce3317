import { type DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '../modules/accounts';
import { CatalogModule } from '../modules/catalog';
import { CouponsModule } from '../modules/certificates';
import { FormsModule } from '../modules/forms';
import { OAuthClientsModule } from '../modules/oauth';
import { CoreModule, type CoreOptions } from './core.module';

/** The operator CLI: the database and the modules it administers (accounts, OAuth, demo). */
@Module({})
export class CliModule {
  static forRoot(options: CoreOptions): DynamicModule {
    return {
      module: CliModule,
      imports: [
        CoreModule.forRoot(options),
        AccountsModule,
        CatalogModule,
        CouponsModule,
        FormsModule,
        OAuthClientsModule,
      ],
    };
  }
}
