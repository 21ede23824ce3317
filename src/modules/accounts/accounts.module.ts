import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountDirectory } from './account-directory';
import {
  CreateAccountHandler,
  RotateApiKeyHandler,
  SetPasswordHandler,
  UpdateSettingsHandler,
} from './account.commands';
import { FindAccountByEmailHandler, GetMeHandler, GetSettingsHandler } from './account.queries';
import { AccountRepository, accountTables } from './account.repository';
import { AuthRevocations } from './auth-revocations';
import { BasicStrategy } from './basic.strategy';
import {
  AddEnterpriseMemberHandler,
  CreateEnterpriseHandler,
  CreateEnterpriseMemberHandler,
  RotateEnterpriseKeyHandler,
  SetEnterpriseLimitHandler,
} from './enterprise.commands';
import { EnterpriseDirectory } from './enterprise-directory';
import { EnterpriseGate } from './enterprise-gate';
import { ListEnterpriseMembersHandler } from './enterprise.queries';
import { EnterpriseRepository } from './enterprise.repository';
import { EnterprisesController } from './enterprises.controller';
import { MeController } from './me.controller';
import { ProvenCredentials } from './proven-credentials';
import { SettingsController } from './settings.controller';

@Module({
  imports: [accountTables, PassportModule],
  controllers: [MeController, SettingsController, EnterprisesController],
  providers: [
    AccountDirectory,
    AccountRepository,
    AddEnterpriseMemberHandler,
    AuthRevocations,
    BasicStrategy,
    CreateAccountHandler,
    CreateEnterpriseHandler,
    CreateEnterpriseMemberHandler,
    EnterpriseDirectory,
    EnterpriseGate,
    EnterpriseRepository,
    FindAccountByEmailHandler,
    GetMeHandler,
    GetSettingsHandler,
    ListEnterpriseMembersHandler,
    ProvenCredentials,
    RotateApiKeyHandler,
    RotateEnterpriseKeyHandler,
    SetEnterpriseLimitHandler,
    SetPasswordHandler,
    UpdateSettingsHandler,
  ],
  exports: [AccountDirectory, AuthRevocations, EnterpriseGate, ProvenCredentials],
})
export class AccountsModule {}
