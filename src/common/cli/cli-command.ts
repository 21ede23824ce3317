import type { INestApplicationContext } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** An operator command: `npm run cli -- <name> --option value`. Its result is printed as JSON. */
export interface CliCommand {
  name: string;
  summary: string;
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; required?: boolean }>;
  /** Adjusts the configuration the command's application starts with. */
  configure?(config: AppConfig): AppConfig;
  run(app: INestApplicationContext, options: OptionValues): Promise<unknown>;
}

/** Thrown for bad arguments: the CLI prints the message and the command's usage, exit code 2. */
export class UsageError extends Error {}

export function usage(command: CliCommand): string {
  const flags = Object.entries(command.options).map(([name, spec]) => {
    const flag = spec.type === 'boolean' ? `--${name}` : `--${name} <${name}>`;
    return spec.required ? flag : `[${flag}]`;
  });
  return `${command.name} ${flags.join(' ')}\n    ${command.summary}`;
}

export function requireString(options: OptionValues, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError(`--${name} is required`);
  return value;
}

export function optionalString(options: OptionValues, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

export function requireId(options: OptionValues, name: string): number {
  const value = requireString(options, name);
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`--${name} must be a positive integer`);
  return Number(value);
}
