import { Injectable } from '@nestjs/common';
import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import type { Enterprise } from './enterprise.entity';
import { EnterpriseRepository } from './enterprise.repository';
import { AuthRevocations } from './auth-revocations';
import { KeyedDirectory } from './keyed-directory';

/**
 * Enterprises by id for the enterprise API's authentication, cached as accounts are (see
 * KeyedDirectory): an enterprise's request costs no query once its key is proven, and a rotated
 * key stops working at once on every API process (AuthRevocations).
 */
@Injectable()
export class EnterpriseDirectory extends KeyedDirectory<Enterprise> {
  constructor(
    enterprises: EnterpriseRepository,
    secrets: Secrets,
    config: AppConfig,
    revocations: AuthRevocations,
  ) {
    super(
      'enterprise',
      (id) => enterprises.findById(id),
      secrets,
      config.auth.cacheTtlMs,
      revocations,
    );
  }
}
