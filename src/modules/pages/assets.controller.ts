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
  /** Its name says all of it (an accent colour's sheet): cached for good. */
  immutable?: boolean;
}

const ACCENT = /^accent-([0-9a-f]{6})\.css$/;

/**
 * `/pages/accent-RRGGBB.css`: the custom properties of an accent colour (buttons, links, focus,
 * the chosen day), for the pages of an account that set one (its contrast was checked then). A
 * stylesheet of the pages' own origin, so the CSP keeps `style-src 'self'` and no inline style;
 * any colour may be asked for, and each answer is a few bytes computed from its name.
 */
function accentSheet(name: string): Asset | undefined {
  const hex = ACCENT.exec(name)?.[1];
  if (!hex) return undefined;
  const body = `:root{--accent:#${hex};--link:#${hex};--focus:#${hex}}\n`;
  return { type: 'text/css; charset=utf-8', body, crossOrigin: false, immutable: true };
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
    const asset = this.assets.get(name) ?? accentSheet(name);
    if (!asset) throw new NotFoundError();
    void reply
      .headers({
        'content-type': asset.type,
        'cache-control': asset.immutable
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=3600',
        'cross-origin-resource-policy': asset.crossOrigin ? 'cross-origin' : 'same-origin',
      })
      .send(asset.body);
  }
}
