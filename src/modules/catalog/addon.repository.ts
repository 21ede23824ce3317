import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantRepository } from '../../common/database/tenant-repository';
import { Addon } from './addon.entity';

@Injectable()
export class AddonRepository extends TenantRepository<Addon> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource, Addon);
  }
}
