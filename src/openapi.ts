import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiModule } from './app/api.module';
import { createHttpAdapter, setApiPrefix } from './app/http-app';
import { buildOpenApiDocument } from './app/openapi-document';
import { createRootLogger } from './common/logging/logging.module';
import { AppConfig } from './config/app-config';

/**
 * Writes the OpenAPI document to the file named (or to stdout): the API's modules in Nest's preview
 * mode, so nothing is connected to (no database, no Redis) and nothing listens. `npm run
 * openapi:write` then lints it (`npm run openapi:lint`) and clients are generated from it.
 */
async function main(): Promise<void> {
  const config = AppConfig.fromEnvironment({ ...process.env, LOG_LEVEL: 'silent' });
  const logger = createRootLogger('silent', 'api');
  const app = await NestFactory.create<NestFastifyApplication>(
    ApiModule.forRoot({ config, logger }),
    createHttpAdapter(logger, config.http),
    { preview: true, logger: false, abortOnError: false },
  );
  setApiPrefix(app);
  const json = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  const [file] = process.argv.slice(2);
  if (file) writeFileSync(file, json);
  else process.stdout.write(json);
}

void main();
