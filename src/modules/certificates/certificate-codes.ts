import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L: a code read aloud or copied by hand is read right. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** 12 characters of 31: about 59 bits, so codes cannot be guessed by trying. */
const GENERATED_CODE_LENGTH = 12;

/** Codes an owner chooses: letters, digits, `-` and `_`. */
export const CODE_PATTERN = /^[A-Z0-9_-]{3,40}$/;

export function generateCode(): string {
  let code = '';
  for (let i = 0; i < GENERATED_CODE_LENGTH; i++)
    code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** How a code is stored and compared: trimmed, upper-cased. */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}
