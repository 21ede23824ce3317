import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantRepository } from '../../common/database/tenant-repository';
import { Order } from './order.entity';

@Injectable()
export class OrderRepository extends TenantRepository<Order> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource, Order);
  }

  /** The account's `max` newest orders, newest first. */
  newest(accountId: number, max: number): Promise<Order[]> {
    return this.rows().find({ where: { accountId }, order: { id: 'DESC' }, take: max });
  }
}
