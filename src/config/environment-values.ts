import { isIP } from 'node:net';
import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min, ValidateBy } from 'class-validator';

/* How the text of an environment variable becomes the value the schema (Environment) checks. */

const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  return value; // left as a string so that @IsBoolean() reports it
};

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

export const toDecimal = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;

/** A whole number from `min` (to `max`, when given). */
export const IntVariable = (min: number, max?: number) =>
  applyDecorators(Transform(toInt), IsInt(), Min(min), ...(max === undefined ? [] : [Max(max)]));

/** `true`/`1`/`yes`/`on` or `false`/`0`/`no`/`off`, in any case. */
export const BooleanVariable = () => applyDecorators(Transform(toBoolean), IsBoolean());

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `false`, a hop count, or a comma-separated list of addresses, CIDRs and range names. */
export function isTrustProxy(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = value.trim();
  if (['false', 'off', 'no', '0'].includes(text.toLowerCase())) return true;
  if (/^\d{1,2}$/.test(text)) return true;
  return text.split(',').every((part) => {
    const entry = part.trim();
    return PROXY_RANGE_NAMES.has(entry) || isAddressOrCidr(entry);
  });
}

/** An IPv4 or IPv6 address, or a CIDR (`192.0.2.0/24`, `2001:db8::/32`). */
export function isAddressOrCidr(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** A comma-separated list of addresses and CIDRs, or nothing. */
export const IsCidrList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isCidrList',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        (value.trim() === '' || value.split(',').every((part) => isAddressOrCidr(part.trim()))),
      defaultMessage: (args) =>
        `${args?.property ?? 'The variable'} must be a comma-separated list of IPv4 or IPv6 addresses and CIDRs`,
    },
  });

export const IsTrustProxy = (): PropertyDecorator =>
  ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: isTrustProxy,
      defaultMessage: () =>
        'TRUST_PROXY must be false, a hop count, or a comma-separated list of addresses, CIDRs, loopback, linklocal, uniquelocal',
    },
  });

/** `host:port` entries, comma-separated (an IPv6 host in brackets: `[::1]:3306`). */
export function hostPortList(text: string): { host: string; port: number }[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(part);
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65535) throw new Error(`not host:port: ${part}`);
      return { host: match[1].replace(/^\[|\]$/g, ''), port };
    });
}

/** A comma-separated list of `host:port`, or nothing. */
export const IsHostPortList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isHostPortList',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        try {
          hostPortList(value);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: (args) =>
        `${args?.property ?? 'The variable'} must be a comma-separated list of host:port`,
    },
  });
