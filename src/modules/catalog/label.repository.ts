import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantRepository } from '../../common/database/tenant-repository';
import { Label } from './label.entity';

@Injectable()
export class LabelRepository extends TenantRepository<Label> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource, Label);
  }
}
