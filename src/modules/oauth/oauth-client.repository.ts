import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { OAuthClient } from './oauth-client.entity';

const CLIENT_ID = /^[0-9a-f]{1,64}$/;

export const OAuthClientTables = TypeOrmModule.forFeature([OAuthClient]);

/** Registered partner apps, read from MySQL (a few reads per connection of an account: no cache). */
@Injectable()
export class OAuthClientRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The app of this client id; an id of another shape is looked up nowhere. */
  find(clientId: string): Promise<OAuthClient | null> {
    return CLIENT_ID.test(clientId)
      ? this.dataSource.getRepository(OAuthClient).findOneBy({ clientId })
      : Promise.resolve(null);
  }

  async insert(tx: EntityManager, client: Omit<OAuthClient, 'id'>): Promise<void> {
    await tx.getRepository(OAuthClient).insert(client);
  }
}
