import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId, CurrentPrincipal, type Principal } from '../accounts';
import {
  CertificateQuery,
  CheckCertificateQuery,
  CreateCertificateRequest,
} from './certificate.requests';
import { CERTIFICATE_VIEW, type CertificateView } from './certificate.view';
import { CertificatesService } from './certificates.service';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

@ApiTags('certificates')
@ApiBasicAuth()
@Controller('certificates')
export class CertificatesController {
  constructor(private readonly certificates: CertificatesService) {}

  @ApiOperation({ summary: 'List the certificates' })
  @ApiView(CERTIFICATE_VIEW, { list: true })
  @Get()
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: CertificateQuery,
  ): Promise<CertificateView[]> {
    return this.certificates.list(principal.account, query);
  }

  /** The certificate if booking with it would be accepted, else the error booking would give. */
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
    @Query() query: CheckCertificateQuery,
  ): Promise<CertificateView> {
    return this.certificates.check(
      principal.account,
      query.certificate,
      query.appointmentTypeID,
      query.email,
    );
  }

  @ApiOperation({ summary: 'Read a certificate' })
  @ApiView(CERTIFICATE_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CertificateView> {
    return this.certificates.get(accountId, id);
  }

  @ApiOperation({ summary: 'Create a certificate' })
  @ApiView(CERTIFICATE_VIEW)
  @Post()
  @HttpCode(200)
  @ApiErrors({ 400: ['invalid_coupon', 'invalid_product', 'required_product_id'] })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CreateCertificateRequest,
  ): Promise<CertificateView> {
    return this.certificates.create(principal.account, request);
  }

  @ApiOperation({ summary: 'Delete a certificate' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.certificates.delete(accountId, id);
  }
}
