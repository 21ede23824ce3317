import { ApiExcludeController } from '@nestjs/swagger';
import { Body, Controller, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { IsArray, IsEmail, IsInt, IsNotEmpty, IsOptional, IsString, Min } from 'class-validator';
import { ForbiddenError } from '../../src/common/errors/domain-error';
import { IdList } from '../../src/common/http/id-list';
import { NUMERIC } from '../../src/common/http/route-catalog';

class ProbeBody {
  @IsString()
  @IsNotEmpty()
  name!: string;

  @IsOptional()
  @IsInt()
  size?: number;

  @IsOptional()
  @IsEmail({}, { context: { code: 'invalid_email', message: 'Invalid "email" attribute value.' } })
  email?: string;
}

class ProbeUpdate {
  @IsOptional()
  @IsString()
  name?: string;
}

class ProbeQuery {
  @IsOptional()
  @IdList()
  @IsArray()
  @IsInt({ each: true })
  @Min(1, { each: true })
  ids?: number[];
}

/**
 * Holds the requests of `GET /probe/slow` until a test opens it: requests in flight for as long as
 * the test needs, whatever the machine's speed.
 */
export class ProbeGate {
  private static opened: Promise<void> = Promise.resolve();
  private static openNow: () => void = () => undefined;
  /** Requests waiting at the gate right now. */
  static waiting = 0;

  static close(): void {
    ProbeGate.opened = new Promise((resolve) => (ProbeGate.openNow = resolve));
  }

  static open(): void {
    ProbeGate.openNow();
  }

  static async pass(): Promise<void> {
    ProbeGate.waiting++;
    try {
      await ProbeGate.opened;
    } finally {
      ProbeGate.waiting--;
    }
  }
}

/**
 * Test-only routes that exercise the platform (parsing, validation, errors) through the real
 * bootstrap, before the feature modules that will use it exist. Mounted by tests, never by the app.
 */
@ApiExcludeController()
@Controller('probe')
export class PlatformProbeController {
  @Post('echo')
  create(@Body() body: ProbeBody): ProbeBody {
    return body;
  }

  @Put('echo')
  update(@Body() body: ProbeUpdate): ProbeUpdate {
    return body;
  }

  @Get('ids')
  ids(@Query() query: ProbeQuery): { ids: number[] | undefined } {
    return { ids: query.ids };
  }

  @Get(`widgets/:id${NUMERIC}`)
  widget(@Param('id') id: string): { id: number } {
    return { id: Number(id) };
  }

  /** Logs through the request's logger: the line must carry the request's id. */
  @Get('log')
  log(@Req() request: FastifyRequest): { logged: true } {
    request.log.info({ probe: true }, 'probe logged');
    return { logged: true };
  }

  /** A slow request: answers once the test opens ProbeGate (at once while it is open). */
  @Get('slow')
  async slow(): Promise<{ slow: true }> {
    await ProbeGate.pass();
    return { slow: true };
  }

  @Get('forbidden')
  forbidden(): never {
    throw new ForbiddenError();
  }

  @Get('crash')
  crash(): never {
    throw new Error(
      "ER_PARSE_ERROR near 'SELECT password_hash FROM accounts' at /srv/app/src/accounts.ts:12",
    );
  }
}
