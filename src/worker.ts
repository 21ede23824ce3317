import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import { HTTP_APP_OPTIONS, createHttpAdapter } from './app/http-app';
import { listeningPort, reportListening, startProcess } from './app/process';
import { closeGracefullyOnSignals } from './app/shutdown';
import { WorkerModule } from './app/worker.module';

/** The worker process: queue consumers and the outbox relay; HTTP only for /health/*. */
void startProcess('worker', 'worker', async (config, logger) => {
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
});
