import { CommandBus, type ICommand } from '@nestjs/cqrs';
import {
  type CliCommand,
  type OptionValues,
  optionalString,
  requireId,
  requireString,
} from '../../common/cli/cli-command';
import { CreateAccountCommand, RotateApiKeyCommand, SetPasswordCommand } from './account.commands';
import {
  AddEnterpriseMemberCommand,
  CreateEnterpriseCommand,
  RotateEnterpriseKeyCommand,
  SetEnterpriseLimitCommand,
} from './enterprise.commands';

const REQUIRED = { type: 'string', required: true } as const;

function send(command: (o: OptionValues) => ICommand): CliCommand['run'] {
  return (app, o) => app.get(CommandBus).execute(command(o));
}

export const accountCommands: CliCommand[] = [
  {
    name: 'account:create',
    summary: 'Creates an account; prints its user ID and API key (shown once).',
    options: {
      email: REQUIRED,
      name: REQUIRED,
      timezone: { type: 'string' },
      password: { type: 'string' },
      enterprise: { type: 'string' },
    },
    run: send(
      (o) =>
        new CreateAccountCommand({
          email: requireString(o, 'email'),
          name: requireString(o, 'name'),
          timezone: optionalString(o, 'timezone'),
          password: optionalString(o, 'password'),
          enterpriseId: o.enterprise === undefined ? undefined : requireId(o, 'enterprise'),
        }),
    ),
  },
  {
    name: 'account:rotate-key',
    summary: 'Replaces the API key of an account; prints the new one. The old key stops working.',
    options: { id: REQUIRED },
    run: send((o) => new RotateApiKeyCommand(requireId(o, 'id'))),
  },
  {
    name: 'account:set-password',
    summary: "Sets the password the account's owner signs in with (OAuth consent).",
    options: { id: REQUIRED, password: REQUIRED },
    run: send((o) => new SetPasswordCommand(requireId(o, 'id'), requireString(o, 'password'))),
  },
  {
    name: 'enterprise:create',
    summary: 'Creates an enterprise; prints its id and API key (shown once).',
    options: { name: REQUIRED },
    run: send((o) => new CreateEnterpriseCommand(requireString(o, 'name'))),
  },
  {
    name: 'enterprise:add-account',
    summary: 'Makes an account a member of an enterprise (an account has at most one).',
    options: { enterprise: REQUIRED, account: REQUIRED },
    run: send(
      (o) => new AddEnterpriseMemberCommand(requireId(o, 'enterprise'), requireId(o, 'account')),
    ),
  },
  {
    name: 'enterprise:rotate-key',
    summary:
      'Replaces the API key of an enterprise; prints the new one. The old key stops working.',
    options: { id: REQUIRED },
    run: send((o) => new RotateEnterpriseKeyCommand(requireId(o, 'id'))),
  },
  {
    name: 'enterprise:set-limit',
    summary: "Sets the enterprise's limit of requests per minute, all its members together.",
    options: { enterprise: REQUIRED, 'per-minute': REQUIRED },
    run: send(
      (o) => new SetEnterpriseLimitCommand(requireId(o, 'enterprise'), requireId(o, 'per-minute')),
    ),
  },
];
