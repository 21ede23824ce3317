import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../common/errors/domain-error';
import type { Enterprise } from './enterprise.entity';
import { requestParam } from './request-param';

/** Metadata of the enterprise API's own endpoints (`/users`, `/webhooks`). */
export const IS_ENTERPRISE_API = 'isEnterpriseApi';
/** The OpenAPI security scheme of the enterprise API: Basic, enterprise id and key. */
export const ENTERPRISE_SECURITY = 'enterprise';

export type EnterpriseRequest = FastifyRequest & { enterprise?: Enterprise };

/** An enterprise API endpoint: the guard takes an enterprise's credentials, never an account's. */
export const EnterpriseApi = (): ClassDecorator =>
  applyDecorators(SetMetadata(IS_ENTERPRISE_API, true), ApiSecurity(ENTERPRISE_SECURITY));

/** The authenticated enterprise (@EnterpriseApi() endpoints only). */
export const CurrentEnterprise = requestParam((request): Enterprise => {
  const enterprise = (request as EnterpriseRequest).enterprise;
  if (!enterprise) throw new UnauthorizedError(); // an endpoint without @EnterpriseApi()
  return enterprise;
});
