import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { DomainError } from '../../src/common/errors/domain-error';
import { Account } from '../../src/modules/accounts';
import { CertificateRedemptions } from '../../src/modules/certificates';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

/**
 * Booking takes a package's use inside its own transaction: validate (the certificate row locked)
 * then consume. Many bookings racing for the last uses: exactly as many win as there were uses.
 */
describe('Package uses under concurrency (e2e, real MySQL)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let account: Account;
  let service: CertificateRedemptions;
  let dataSource: DataSource;

  beforeAll(async () => {
    app = await startApi();
    const owner = await createAccount(app);
    api = apiClient(app, owner);
    dataSource = app.get(DataSource);
    account = await dataSource.getRepository(Account).findOneByOrFail({ id: owner.id });
    service = app.get(CertificateRedemptions);
  });

  afterAll(() => app.close());

  async function packageWith(uses: number): Promise<{ code: string; id: number; type: number }> {
    const type = await createAppointmentType(api);
    const product = await api.post('/products', {
      name: `Pack of ${uses}`,
      price: 10,
      type: 'appointments',
      appointmentTypeCounts: { [type]: uses },
    });
    const certificate = await api.post('/certificates', {
      productID: (product.body as { id: number }).id,
    });
    const { id, certificate: code } = certificate.body as { id: number; certificate: string };
    return { code, id, type };
  }

  /** One booking's part: validate with the row locked, take the use, commit. */
  const book = (code: string, type: number) =>
    dataSource.transaction(async (tx) => {
      const resolved = await service.validate(tx, account, code, type, null, { forUpdate: true });
      await service.consumeUse(tx, resolved, type);
    });

  async function storm(code: string, type: number, bookings: number) {
    const outcomes = await Promise.allSettled(
      Array.from({ length: bookings }, () => book(code, type)),
    );
    const refusals = outcomes
      .filter((o) => o.status === 'rejected')
      .map((o) => o.reason as unknown);
    for (const reason of refusals) {
      expect(reason).toBeInstanceOf(DomainError);
      expect((reason as DomainError).code).toBe('certificate_uses');
    }
    return outcomes.length - refusals.length;
  }

  const remaining = async (id: number, type: number): Promise<number> => {
    const [row] = await dataSource.query<{ remaining: number }[]>(
      'SELECT remaining FROM certificate_uses WHERE certificate_id = ? AND appointment_type_id = ?',
      [id, type],
    );
    return Number(row.remaining);
  };

  it('50 bookings racing for the last use: exactly one wins, none left, never negative', async () => {
    const { code, id, type } = await packageWith(1);
    expect(await storm(code, type, 50)).toBe(1);
    expect(await remaining(id, type)).toBe(0);
    expect(
      await api.get(`/certificates/check?certificate=${code}&appointmentTypeID=${type}`),
    ).toMatchObject({
      status: 400,
      body: {
        error: 'certificate_uses',
        message: `The certificate "${code}" has no remaining uses for appointment type "${type}".`,
      },
    });
  });

  it('50 bookings racing for 3 uses: exactly three win', async () => {
    const { code, id, type } = await packageWith(3);
    expect(await storm(code, type, 50)).toBe(3);
    expect(await remaining(id, type)).toBe(0);
  });

  it('gives a use back when released', async () => {
    const { code, id, type } = await packageWith(1);
    await book(code, type);
    await dataSource.transaction((tx) => service.releaseUse(tx, id, type));
    expect(await remaining(id, type)).toBe(1);
    expect(await storm(code, type, 10)).toBe(1);
  });
});
