/* What other modules use of accounts; they import it from here, not from the module's files. */
export { AccountDirectory } from './keyed-directory';
export { type AccountCredentials, CreateAccountCommand } from './account.commands';
export { Account } from './account.entity';
export { FindAccountByEmailQuery } from './account.queries';
export { assertEmail, assertName, assertTimezone, logoOriginOf } from './account-rules';
export { accountCommands } from './accounts.cli';
export { InvalidTimezoneError } from './accounts.errors';
export { AccountsModule } from './accounts.module';
export { ApiAuthGuard } from './api-auth.guard';
export { AuthRevocations, type RevocableCache, type Revocation } from './auth-revocations';
export { CurrentAccountId, CurrentPrincipal } from './auth.decorators';
export {
  CurrentEnterprise,
  ENTERPRISE_SECURITY,
  EnterpriseApi,
} from './enterprise-auth.decorators';
export { Enterprise } from './enterprise.entity';
export { type Principal, principalOf } from './principal';
export { type ProvenCredentialCheck, ProvenCredentials } from './proven-credentials';
export { RevocationFeed } from './revocation-feed';
