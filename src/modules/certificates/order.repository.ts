import { Injectable } from '@nestjs/common';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { Order } from './order.entity';

@Injectable()
export class OrderRepository extends RepositoryOf(Order) {
  newest(accountId: number, max: number): Promise<Order[]> {
    return this.rows().find({ where: { accountId }, order: { id: 'DESC' }, take: max });
  }
}
