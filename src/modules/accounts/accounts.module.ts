import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountDirectory } from './account-directory';
import { Account } from './account.entity';
import { BasicStrategy } from './basic.strategy';
import { CreateAccountHandler } from './create-account.handler';
import { MeController } from './me.controller';
import { ProvenCredentials } from './proven-credentials';
import { RotateApiKeyHandler } from './rotate-api-key.handler';
import { SetPasswordHandler } from './set-password.handler';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

@Module({
  imports: [TypeOrmModule.forFeature([Account]), PassportModule],
  controllers: [MeController, SettingsController],
  providers: [
    AccountDirectory,
    BasicStrategy,
    CreateAccountHandler,
    ProvenCredentials,
    RotateApiKeyHandler,
    SetPasswordHandler,
    SettingsService,
  ],
  exports: [AccountDirectory, ProvenCredentials, SettingsService],
})
export class AccountsModule {}
