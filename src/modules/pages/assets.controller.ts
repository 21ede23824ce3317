import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { NotFoundError } from '../../common/errors/domain-error';
import { Public } from '../../common/http/public.decorator';

interface Asset {
  type: string;
  body: string;
  /** embed.js is loaded by the embedding site's page: another origin. */
  crossOrigin: boolean;
}

/** The pages' stylesheet and scripts, read once at start (copied beside the build by nest-cli). */
function load(name: string, type: string, crossOrigin = false): Asset {
  return { type, body: readFileSync(join(__dirname, 'assets', name), 'utf8'), crossOrigin };
}

/**
 * `/pages/pages.css`, `/pages/pages.js` (the only style and script the pages load: CSP `'self'`)
 * and `/pages/embed.js` (for the site that embeds the page: it sizes the iframe to its content).
 */
@ApiExcludeController()
@Public()
@Controller('pages')
export class AssetsController {
  private readonly assets = new Map<string, Asset>([
    ['pages.css', load('pages.css', 'text/css; charset=utf-8')],
    ['pages.js', load('pages.js', 'text/javascript; charset=utf-8')],
    ['embed.js', load('embed.js', 'text/javascript; charset=utf-8', true)],
  ]);

  @Get(':name')
  serve(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = this.assets.get(name);
    if (!asset) throw new NotFoundError();
    void reply
      .headers({
        'content-type': asset.type,
        'cache-control': 'public, max-age=3600',
        'cross-origin-resource-policy': asset.crossOrigin ? 'cross-origin' : 'same-origin',
      })
      .send(asset.body);
  }
}
