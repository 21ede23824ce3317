import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAccount, startApi } from '../support/test-app';

/** Clients type coupon codes and certificate codes into one field: an account has one namespace. */
describe('Certificate and coupon codes share a namespace (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app));
  });

  afterAll(() => app.close());

  it("refuses a coupon code that is a certificate's, and a certificate code that is a coupon's", async () => {
    const coupon = await api.post('/coupons', {
      code: 'spring',
      name: 'Spring',
      discountType: 'price',
      discountAmount: 5,
    });
    expect(coupon.status).toBe(200);
    const issued = await api.post('/certificates', {
      couponID: (coupon.body as { id: number }).id,
      certificate: 'summer',
    });
    expect(issued).toMatchObject({ status: 200, body: { certificate: 'SUMMER', type: 'coupon' } });

    expect(
      await api.post('/coupons', {
        code: 'Summer',
        name: 'S',
        discountType: 'price',
        discountAmount: 1,
      }),
    ).toMatchObject(apiError(400, 'invalid_code', 'The code "SUMMER" is already in use.'));
    expect(
      await api.post('/certificates', {
        couponID: (coupon.body as { id: number }).id,
        certificate: 'SPRING',
      }),
    ).toMatchObject(apiError(400, 'invalid_certificate', 'The code "SPRING" is already in use.'));
  });
});
