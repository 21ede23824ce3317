import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import { PassportModule } from '@nestjs/passport';
import * as accountCommands from './account.commands';
import * as accountQueries from './account.queries';
import { AccountRepository, accountTables } from './account.repository';
import { AuthRevocations } from './auth-revocations';
import { BasicStrategy } from './basic.strategy';
import * as enterpriseCommands from './enterprise.commands';
import { AccountDirectory, EnterpriseDirectory } from './keyed-directory';
import { EnterpriseGate } from './enterprise-gate';
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
    AuthRevocations,
    BasicStrategy,
    EnterpriseDirectory,
    EnterpriseGate,
    EnterpriseRepository,
    ProvenCredentials,
    ...handlersOf(accountCommands, accountQueries, enterpriseCommands),
  ],
  exports: [AccountDirectory, AuthRevocations, EnterpriseGate, ProvenCredentials],
})
export class AccountsModule {}
