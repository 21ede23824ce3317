import { Command } from '@nestjs/cqrs';

/** Sets the password an account's owner signs in with (the OAuth consent screen). */
export class SetPasswordCommand extends Command<{ id: number }> {
  constructor(
    readonly accountId: number,
    readonly password: string,
  ) {
    super();
  }
}
