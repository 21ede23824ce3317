import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { liveTypeLinks } from './appointment-type.repository';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { Product, ProductAppointmentType } from './product.entity';
import type { TypeCounts } from './product.requests';

@Injectable()
export class ProductRepository extends RepositoryOf(Product) {
  /** The products' links to live types, by type id ascending (see liveTypeLinks). */
  typeLinks(
    accountId: number,
    productIds: readonly number[],
    tx: EntityManager = this.dataSource.manager,
  ): Promise<ProductAppointmentType[]> {
    return liveTypeLinks(tx, ProductAppointmentType, 'productId', accountId, productIds);
  }

  async replaceCounts(tx: EntityManager, productId: number, counts: TypeCounts): Promise<void> {
    await tx.delete(ProductAppointmentType, { productId });
    const rows = Object.entries(counts).map(([typeId, count]) => ({
      productId,
      appointmentTypeId: Number(typeId),
      count,
    }));
    if (rows.length > 0) await tx.insert(ProductAppointmentType, rows);
  }
}
