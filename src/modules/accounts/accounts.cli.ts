import { CommandBus } from '@nestjs/cqrs';
import {
  type CliCommand,
  optionalString,
  requireId,
  requireString,
} from '../../common/cli/cli-command';
import { CreateAccountCommand } from './create-account.command';
import { RotateApiKeyCommand } from './rotate-api-key.command';
import { SetPasswordCommand } from './set-password.command';

export const accountCommands: CliCommand[] = [
  {
    name: 'account:create',
    summary: 'Creates an account; prints its user ID and API key (shown once).',
    options: {
      email: { type: 'string', required: true },
      name: { type: 'string', required: true },
      timezone: { type: 'string' },
      password: { type: 'string' },
    },
    run: (app, o) =>
      app.get(CommandBus).execute(
        new CreateAccountCommand({
          email: requireString(o, 'email'),
          name: requireString(o, 'name'),
          timezone: optionalString(o, 'timezone'),
          password: optionalString(o, 'password'),
        }),
      ),
  },
  {
    name: 'account:rotate-key',
    summary: 'Replaces the API key of an account; prints the new one. The old key stops working.',
    options: { id: { type: 'string', required: true } },
    run: (app, o) => app.get(CommandBus).execute(new RotateApiKeyCommand(requireId(o, 'id'))),
  },
  {
    name: 'account:set-password',
    summary: "Sets the password the account's owner signs in with (OAuth consent).",
    options: {
      id: { type: 'string', required: true },
      password: { type: 'string', required: true },
    },
    run: (app, o) =>
      app
        .get(CommandBus)
        .execute(new SetPasswordCommand(requireId(o, 'id'), requireString(o, 'password'))),
  },
];
