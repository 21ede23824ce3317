import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Account } from '../accounts';

/** The accounts as the authorization page's sign-in reads them: from MySQL, never a cache. */
@Injectable()
export class SignInAccountRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  byEmail(email: string): Promise<Account | null> {
    return this.dataSource.getRepository(Account).findOneBy({ email });
  }

  byId(id: number): Promise<Account | null> {
    return this.dataSource.getRepository(Account).findOneBy({ id });
  }
}
