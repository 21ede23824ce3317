import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A partner app registered by the operator (`npm run cli -- oauth-client:create`). */
@Entity('oauth_clients')
@Index('uq_oauth_clients_client_id', ['clientId'], { unique: true })
export class OAuthClient {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  /** The public identifier (`client_id`): random, shown to the app's developer. */
  @Column({ name: 'client_id', type: 'varchar', length: 64 })
  clientId!: string;

  /** Keyed hash of the client secret (the secret is shown once, at registration). */
  @Column({ name: 'secret_hash', type: 'char', length: 64 })
  secretHash!: string;

  /** What the consent page calls the app. */
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** The redirect URIs the app may use, compared as exact strings. */
  @Column({ name: 'redirect_uris', type: 'json' })
  redirectUris!: string[];

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
