import { CommandBus } from '@nestjs/cqrs';
import {
  type CliCommand,
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

export const accountCommands: CliCommand[] = [
  {
    name: 'account:create',
    summary: 'Creates an account; prints its user ID and API key (shown once).',
    options: {
      email: { type: 'string', required: true },
      name: { type: 'string', required: true },
      timezone: { type: 'string' },
      password: { type: 'string' },
      enterprise: { type: 'string' },
    },
    run: (app, o) =>
      app.get(CommandBus).execute(
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
  {
    name: 'enterprise:create',
    summary: 'Creates an enterprise; prints its id and API key (shown once).',
    options: { name: { type: 'string', required: true } },
    run: (app, o) =>
      app.get(CommandBus).execute(new CreateEnterpriseCommand(requireString(o, 'name'))),
  },
  {
    name: 'enterprise:add-account',
    summary: 'Makes an account a member of an enterprise (an account has at most one).',
    options: {
      enterprise: { type: 'string', required: true },
      account: { type: 'string', required: true },
    },
    run: (app, o) =>
      app
        .get(CommandBus)
        .execute(
          new AddEnterpriseMemberCommand(requireId(o, 'enterprise'), requireId(o, 'account')),
        ),
  },
  {
    name: 'enterprise:rotate-key',
    summary:
      'Replaces the API key of an enterprise; prints the new one. The old key stops working.',
    options: { id: { type: 'string', required: true } },
    run: (app, o) =>
      app.get(CommandBus).execute(new RotateEnterpriseKeyCommand(requireId(o, 'id'))),
  },
  {
    name: 'enterprise:set-limit',
    summary: "Sets the enterprise's limit of requests per minute, all its members together.",
    options: {
      enterprise: { type: 'string', required: true },
      'per-minute': { type: 'string', required: true },
    },
    run: (app, o) =>
      app
        .get(CommandBus)
        .execute(
          new SetEnterpriseLimitCommand(requireId(o, 'enterprise'), requireId(o, 'per-minute')),
        ),
  },
];
