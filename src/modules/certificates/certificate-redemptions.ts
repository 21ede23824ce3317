import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { EntityManager } from 'typeorm';
import type { Account } from '../accounts';
import { normalizeCode } from './certificate-codes';
import {
  CertificateUsesError,
  ExpiredCertificateError,
  InvalidCertificateError,
  InvalidCertificateTypeError,
} from './certificate.errors';
import { CertificateRepository } from './certificate.repository';
import {
  type ResolvedCertificate,
  appointmentTypeIdsOf,
  expirationOf,
  kindOf,
} from './certificate.view';

/** What booking runs in its transaction: validate, then consumeUse; releaseUse on a cancel. */
@Injectable()
export class CertificateRedemptions {
  constructor(private readonly certificates: CertificateRepository) {}

  /**
   * The contract's checks, in its order: `invalid_certificate` (no such code, or another e-mail's),
   * `expired_certificate`, `invalid_certificate_type`, `certificate_uses`. `forUpdate` locks the
   * certificate and its uses until the caller commits: bookings racing for a last use queue.
   */
  async validate(
    tx: EntityManager | undefined,
    account: Account,
    code: string,
    appointmentTypeId: number,
    email: string | null | undefined,
    options: { forUpdate?: boolean } = {},
  ): Promise<ResolvedCertificate> {
    const resolved = await this.certificates.resolveCode(account.id, normalizeCode(code), {
      tx,
      forUpdate: options.forUpdate,
    });
    if (!resolved) throw new InvalidCertificateError(code);
    const owner = resolved.certificate?.email;
    if (owner && owner !== (email ?? '').trim().toLowerCase())
      throw new InvalidCertificateError(code);
    if (expired(resolved, account)) throw new ExpiredCertificateError(code);
    if (!usableFor(resolved, appointmentTypeId, { ignoreUses: true }))
      throw new InvalidCertificateTypeError(code, appointmentTypeId);
    if (kindOf(resolved) === 'package' && (resolved.uses.get(appointmentTypeId) ?? 0) < 1)
      throw new CertificateUsesError(code, appointmentTypeId);
    return resolved;
  }

  /** Takes one use of a package for the type (nothing for other kinds); never below zero. */
  async consumeUse(
    tx: EntityManager,
    resolved: ResolvedCertificate,
    appointmentTypeId: number,
  ): Promise<void> {
    if (kindOf(resolved) !== 'package' || !resolved.certificate) return;
    if (!(await this.certificates.consumeUse(tx, resolved.certificate.id, appointmentTypeId)))
      throw new CertificateUsesError(resolved.code, appointmentTypeId);
    resolved.uses.set(appointmentTypeId, (resolved.uses.get(appointmentTypeId) ?? 1) - 1);
  }

  /** Gives back the use an appointment took (it was canceled). */
  releaseUse(tx: EntityManager, certificateId: number, appointmentTypeId: number): Promise<void> {
    return this.certificates.releaseUse(tx, certificateId, appointmentTypeId);
  }
}

/** Past its last day (the account's zone). */
export function expired(resolved: ResolvedCertificate, account: Account): boolean {
  const expiration = expirationOf(resolved);
  return expiration !== null && DateTime.now().setZone(account.timezone).toISODate()! > expiration;
}

/** Whether it applies to the type (and a package has a use left for it, unless `ignoreUses`). */
export function usableFor(
  resolved: ResolvedCertificate,
  appointmentTypeId: number,
  options: { ignoreUses?: boolean } = {},
): boolean {
  const kind = kindOf(resolved);
  if (kind === 'gift') return true;
  if (kind === 'coupon') {
    // Its coupon must still exist.
    if (resolved.coupon === null || resolved.coupon.deletedAt !== null) return false;
    const types = appointmentTypeIdsOf(resolved);
    return types.length === 0 || types.includes(appointmentTypeId);
  }
  const left = resolved.uses.get(appointmentTypeId);
  return left !== undefined && (options.ignoreUses || left > 0);
}
