import { Column, PrimaryGeneratedColumn } from 'typeorm';

/** The columns an account's table starts with: the row's id, then the account it belongs to. */
export abstract class TenantEntity {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;
}
