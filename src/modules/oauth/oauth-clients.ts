import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { OAuthClient } from './oauth-client.entity';

const CLIENT_ID = /^[0-9a-f]{1,64}$/;

/** Registered partner apps, read from MySQL (a few reads per connection of an account: no cache). */
@Injectable()
export class OAuthClients {
  constructor(
    @InjectRepository(OAuthClient) private readonly clients: Repository<OAuthClient>,
    private readonly secrets: Secrets,
  ) {}

  find(clientId: string): Promise<OAuthClient | null> {
    return CLIENT_ID.test(clientId) ? this.clients.findOneBy({ clientId }) : Promise.resolve(null);
  }

  /** The client whose id and secret these are, or null. Constant-time in the secret. */
  async authenticate(clientId: string, secret: string): Promise<OAuthClient | null> {
    const client = await this.find(clientId);
    // Hash the secret even for an unknown client, so that the time does not tell which exist.
    const matches = this.secrets.matches(secret, client?.secretHash ?? '0'.repeat(64));
    return client && matches ? client : null;
  }
}
