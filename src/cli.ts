import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { type CliCommand, type OptionValues, UsageError, usage } from './common/cli/cli-command';
import { CliModule } from './app/cli.module';
import { configOrExit } from './app/process';
import { DomainError } from './common/errors/domain-error';
import { databaseCommands } from './common/database/database.cli';
import { accountCommands } from './modules/accounts';
import { oauthCommands } from './modules/oauth';
import { demoCommands } from './app/demo.cli';

const commands: CliCommand[] = [
  ...databaseCommands,
  ...accountCommands,
  ...oauthCommands,
  ...demoCommands,
];

function help(): string {
  return `Usage: npm run cli -- <command> [options]\n\nCommands:\n${commands.map((c) => `  ${usage(c)}`).join('\n')}\n`;
}

/**
 * Operator commands. The result is JSON on the last line of stdout; logs go to stderr. Exit codes:
 * 0 done, 1 refused by the domain (e.g. e-mail taken) or failed, 2 bad usage.
 */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${help()}`);
    return 2;
  }

  let values: OptionValues;
  try {
    values = parseArgs({
      args: rest,
      options: command.options,
      strict: true,
      allowPositionals: false,
    }).values;
    for (const [option, spec] of Object.entries(command.options)) {
      if (spec.required && values[option] === undefined)
        throw new UsageError(`--${option} is required`);
    }
  } catch (e) {
    process.stderr.write(
      `${e instanceof Error ? e.message : String(e)}\n\nUsage: ${usage(command)}\n`,
    );
    return 2;
  }

  const config = command.configure ? command.configure(configOrExit()) : configOrExit();
  const logger = pino({ level: 'warn', base: { service: 'cli' } }, pino.destination(2));
  const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config, logger }), {
    logger: ['error', 'warn'],
  });
  try {
    const result = await command.run(app, values);
    process.stdout.write(`${JSON.stringify(result ?? { ok: true })}\n`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\n\nUsage: ${usage(command)}\n`);
      return 2;
    }
    if (e instanceof DomainError) {
      process.stderr.write(`${e.message}\n`);
      process.stdout.write(`${JSON.stringify({ error: e.code, message: e.message })}\n`);
      return 1;
    }
    throw e;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
