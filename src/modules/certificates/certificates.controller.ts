import { Body, Controller, Get, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { CurrentAccountId, CurrentPrincipal, type Principal } from '../accounts';
import { Route } from '../catalog';
import {
  ListCertificatesRequest,
  CheckCertificateRequest,
  CreateCertificateRequest,
} from './certificate.requests';
import { CERTIFICATE_VIEW, type CertificateView } from './certificate.view';
import { CreateCertificateCommand, DeleteCertificateCommand } from './certificate.commands';
import {
  CheckCertificateQuery,
  GetCertificateQuery,
  ListCertificatesQuery,
} from './certificate.queries';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

@ApiTags('certificates')
@ApiBasicAuth()
@Controller('certificates')
export class CertificatesController extends BusController {
  @Route.list('List the certificates', CERTIFICATE_VIEW)
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListCertificatesRequest,
  ): Promise<CertificateView[]> {
    return this.queries.execute(new ListCertificatesQuery(principal.account, query));
  }

  @ApiOperation({ summary: 'Check a certificate code' })
  @ApiView(CERTIFICATE_VIEW)
  @Get('check')
  @ApiErrors({
    400: [
      'certificate_uses',
      'expired_certificate',
      'invalid_certificate_type',
      'invalid_appointment_type',
    ],
  })
  check(
    @CurrentPrincipal() principal: Principal,
    @Query() query: CheckCertificateRequest,
  ): Promise<CertificateView> {
    return this.queries.execute(new CheckCertificateQuery(principal.account, query));
  }

  @Route.get('Read a certificate', CERTIFICATE_VIEW)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CertificateView> {
    return this.queries.execute(new GetCertificateQuery(accountId, id));
  }

  @Route.create('Create a certificate', CERTIFICATE_VIEW)
  @ApiErrors({ 400: ['invalid_coupon', 'invalid_product', 'required_product_id'] })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CreateCertificateRequest,
  ): Promise<CertificateView> {
    return this.commands.execute(new CreateCertificateCommand(principal.account, request));
  }

  @Route.delete('Delete a certificate')
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteCertificateCommand(accountId, id));
  }
}
