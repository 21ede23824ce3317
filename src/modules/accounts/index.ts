/*
 * What other modules use of accounts; they import it from here, not from the module's files.
 */
export { Account } from './account.entity';
export { assertTimezone } from './account-rules';
export { CurrentAccountId, CurrentPrincipal } from './auth.decorators';
export type { Principal } from './principal';
