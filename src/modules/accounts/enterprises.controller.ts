import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { ACCOUNT_VIEW_SCHEMA, type AccountView } from './account.view';
import { CurrentEnterprise, EnterpriseApi } from './enterprise-auth.decorators';
import type { Enterprise } from './enterprise.entity';
import { CreateEnterpriseMemberCommand, type NewMemberView } from './enterprise.commands';
import { CreateMemberRequest } from './enterprise-member.requests';
import { ListEnterpriseMembersQuery } from './account.queries';
import { BusController } from '../../common/cqrs/bus-controller';

/**
 * The enterprise API's own endpoints for its members (docs/enterprise.md). Everything else a member
 * has is served under `/api/enterprise/v1/users/{userId}/` by the v1 routes themselves.
 */
@ApiTags('enterprise')
@EnterpriseApi()
@Controller('api/enterprise/v1/users')
export class EnterprisesController extends BusController {
  @Get()
  @ApiOperation({
    summary: "List the enterprise's member accounts",
    description: 'Each in the shape of `GET /api/v1/me`, by id.',
  })
  @ApiOkResponse({
    description: 'The members.',
    schema: { type: 'array', items: ACCOUNT_VIEW_SCHEMA },
  })
  @ApiErrors({})
  list(@CurrentEnterprise() enterprise: Enterprise): Promise<AccountView[]> {
    return this.queries.execute(new ListEnterpriseMembersQuery(enterprise.id));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a member account',
    description:
      "A new account, member of the enterprise: the `/me` shape and the account's own `apiKey`, " +
      "shown once (it signs the member's own webhooks; the enterprise acts with its own key).",
  })
  @ApiOkResponse({
    description: 'The new member.',
    schema: {
      ...ACCOUNT_VIEW_SCHEMA,
      required: [...ACCOUNT_VIEW_SCHEMA.required, 'apiKey'],
      properties: {
        ...ACCOUNT_VIEW_SCHEMA.properties,
        apiKey: { type: 'string', description: "The member's own API key, shown once." },
      },
    },
  })
  @ApiErrors({
    400: ['required_name', 'invalid_name', 'invalid_email', 'invalid_timezone', 'bad_request'],
    409: ['email_taken'],
  })
  create(
    @CurrentEnterprise() enterprise: Enterprise,
    @Body() request: CreateMemberRequest,
  ): Promise<NewMemberView> {
    return this.commands.execute(new CreateEnterpriseMemberCommand(enterprise.id, request));
  }
}
