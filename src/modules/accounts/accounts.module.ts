import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountDirectory } from './account-directory';
import { Account } from './account.entity';
import { AuthRevocations } from './auth-revocations';
import { EnterpriseDirectory } from './enterprise-directory';
import { Enterprise } from './enterprise.entity';
import { EnterpriseGate } from './enterprise-gate';
import { EnterprisesController } from './enterprises.controller';
import { EnterprisesService } from './enterprises.service';
import { BasicStrategy } from './basic.strategy';
import { CreateAccountHandler } from './create-account.handler';
import { MeController } from './me.controller';
import { ProvenCredentials } from './proven-credentials';
import { RotateApiKeyHandler } from './rotate-api-key.handler';
import { SetPasswordHandler } from './set-password.handler';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

@Module({
  imports: [TypeOrmModule.forFeature([Account, Enterprise]), PassportModule],
  controllers: [MeController, SettingsController, EnterprisesController],
  providers: [
    AccountDirectory,
    AuthRevocations,
    BasicStrategy,
    CreateAccountHandler,
    EnterpriseDirectory,
    EnterpriseGate,
    EnterprisesService,
    ProvenCredentials,
    RotateApiKeyHandler,
    SetPasswordHandler,
    SettingsService,
  ],
  exports: [
    AccountDirectory,
    AuthRevocations,
    EnterpriseGate,
    EnterprisesService,
    ProvenCredentials,
    SettingsService,
  ],
})
export class AccountsModule {}
