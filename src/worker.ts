import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import { HTTP_APP_OPTIONS, createHttpAdapter } from './app/http-app';
import { configOrExit, listeningPort, reportListening } from './app/process';
import { closeGracefullyOnSignals } from './app/shutdown';
import { WorkerModule } from './app/worker.module';
import { createRootLogger, logFormat } from './common/logging/logging.module';

/** The worker process: queue consumers and the outbox relay; HTTP only for /health/*. */
async function bootstrap(): Promise<void> {
  const config = configOrExit();
  const format = logFormat(config.env, process.stdout.isTTY);
  const logger = createRootLogger(config.log.level, 'worker', undefined, format);
  try {
    const app = await NestFactory.create<NestFastifyApplication>(
      WorkerModule.forRoot({ config, logger }),
      createHttpAdapter(logger),
      HTTP_APP_OPTIONS,
    );
    app.useLogger(app.get(NestPinoLogger));
    closeGracefullyOnSignals(app, logger, config.shutdownTimeoutMs);
    await app.listen(config.worker.port, config.http.host);
    const port = listeningPort(app);
    logger.info({ port }, 'worker running');
    reportListening(port);
  } catch (err) {
    logger.fatal({ err }, 'worker failed to start');
    logger.flush();
    process.exit(1);
  }
}

void bootstrap();
