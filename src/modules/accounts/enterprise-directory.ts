import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import { Enterprise } from './enterprise.entity';
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
    @InjectRepository(Enterprise) enterprises: Repository<Enterprise>,
    secrets: Secrets,
    config: AppConfig,
    revocations: AuthRevocations,
  ) {
    super(
      'enterprise',
      (id) => enterprises.findOneBy({ id }),
      secrets,
      config.auth.cacheTtlMs,
      revocations,
    );
  }
}
