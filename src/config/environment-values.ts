import { isIP } from 'node:net';
import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  isURL,
} from 'class-validator';

/* How the text of an environment variable becomes the value the schema (Environment) checks. */

/** A variable of the schema: its default and its checks, recorded in the order given. */
export interface Variable<T> {
  value: T;
  check: PropertyDecorator;
}

export const variable = <T>(value: T, ...checks: PropertyDecorator[]): Variable<T> => ({
  value,
  check: applyDecorators(...checks),
});

/** The same variable without a default: not set, it is not checked. */
export const optional = <T>({ check }: Variable<T>): Variable<T | undefined> =>
  variable(undefined, check, IsOptional());

const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  return value; // left as a string so that @IsBoolean() reports it
};

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

const toDecimal = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;

export const text = (value: string) => variable(value, IsString());

export const oneOf = <const T extends string>(values: readonly T[], value: NoInfer<T>) =>
  variable(value, IsIn(values));

/** A whole number from `min` (to `max`, when given). */
export const int = (value: number, min: number, max?: number) =>
  variable(value, Transform(toInt), IsInt(), Min(min), ...(max === undefined ? [] : [Max(max)]));

/** A decimal number from `min` to `max` (a bad value reports `max`: the first check). */
export const decimal = (value: number, min: number, max: number) =>
  variable(value, Max(max), Min(min), IsNumber(), Transform(toDecimal));

/** `true`/`1`/`yes`/`on` or `false`/`0`/`no`/`off`, in any case. */
export const bool = (value: boolean) => variable(value, Transform(toBoolean), IsBoolean());

/** Text that `test` checks (the check named after it); its message: the name, then `mustBe`. */
const checkedText =
  (test: (text: string) => boolean, mustBe: string) =>
  (value = '') =>
    variable(
      value,
      ValidateBy({
        name: test.name,
        validator: {
          validate: (value: unknown) => typeof value === 'string' && test(value),
          defaultMessage: (args) => `${args?.property ?? 'The variable'} ${mustBe}`,
        },
      }),
    );

/** Text matching `pattern`; its message: the name, then `mustBe`. */
export const pattern = (value: string, regex: RegExp, mustBe: string) =>
  variable(value, Matches(regex, { message: (args) => `${args.property} ${mustBe}` }));

/** An http(s) URL, or nothing. */
const isUrl = (text: string) =>
  text === '' ||
  isURL(text, { require_tld: false, require_protocol: true, protocols: ['http', 'https'] });
export const url = checkedText(isUrl, 'must be a URL address');

/** Ports besides 443 and 80, comma-separated, or `*` for any port; empty = none. */
const isPortList = (text: string) => /^(\*|(\s*\d{1,5}\s*(,\s*\d{1,5}\s*)*)?)$/.test(text);
export const ports = checkedText(isPortList, 'must be a comma-separated list of ports, or *');

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `false`, a hop count, or a comma-separated list of addresses, CIDRs and range names. */
function isTrustProxy(value: string): boolean {
  const text = value.trim();
  if (['false', 'off', 'no', '0'].includes(text.toLowerCase())) return true;
  if (/^\d{1,2}$/.test(text)) return true;
  return text.split(',').every((part) => {
    const entry = part.trim();
    return PROXY_RANGE_NAMES.has(entry) || isAddressOrCidr(entry);
  });
}
export const trustProxy = checkedText(
  isTrustProxy,
  'must be false, a hop count, or a comma-separated list of addresses, CIDRs, loopback, linklocal, uniquelocal',
);

/** An IPv4 or IPv6 address, or a CIDR (`192.0.2.0/24`, `2001:db8::/32`). */
function isAddressOrCidr(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** A comma-separated list of addresses and CIDRs, or nothing. */
const isCidrList = (text: string) =>
  text.trim() === '' || text.split(',').every((part) => isAddressOrCidr(part.trim()));
export const cidrs = checkedText(
  isCidrList,
  'must be a comma-separated list of IPv4 or IPv6 addresses and CIDRs',
);

/** The entries of a comma-separated list, trimmed, without empty ones. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** `host:port` (an IPv6 host in brackets: `[::1]:3306`), or undefined. */
function hostPortOf(part: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(part);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) return undefined;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

export function hostPortList(text: string): { host: string; port: number }[] {
  return commaList(text).map((part) => {
    const hostPort = hostPortOf(part);
    if (!hostPort) throw new Error(`not host:port: ${part}`);
    return hostPort;
  });
}

/** A comma-separated list of `host:port`, or nothing. */
const isHostPortList = (text: string) =>
  commaList(text).every((part) => hostPortOf(part) !== undefined);
export const hostPorts = checkedText(isHostPortList, 'must be a comma-separated list of host:port');
