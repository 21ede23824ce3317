import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId, CurrentPrincipal, type Principal } from '../accounts';
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
export class CertificatesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @ApiOperation({ summary: 'List the certificates' })
  @ApiView(CERTIFICATE_VIEW, { list: true })
  @Get()
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListCertificatesRequest,
  ): Promise<CertificateView[]> {
    return this.queries.execute(new ListCertificatesQuery(principal.account, query));
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
    @Query() query: CheckCertificateRequest,
  ): Promise<CertificateView> {
    return this.queries.execute(
      new CheckCertificateQuery(
        principal.account,
        query.certificate,
        query.appointmentTypeID,
        query.email,
      ),
    );
  }

  @ApiOperation({ summary: 'Read a certificate' })
  @ApiView(CERTIFICATE_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<CertificateView> {
    return this.queries.execute(new GetCertificateQuery(accountId, id));
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
    return this.commands.execute(new CreateCertificateCommand(principal.account, request));
  }

  @ApiOperation({ summary: 'Delete a certificate' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteCertificateCommand(accountId, id));
  }
}
