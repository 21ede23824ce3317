import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiModule } from './app/api.module';
import { HTTP_APP_OPTIONS, configureApi, createHttpAdapter } from './app/http-app';
import { listeningPort, reportListening, startProcess } from './app/process';
import { closeGracefullyOnSignals } from './app/shutdown';
import { MetricsServer } from './common/metrics/metrics-server';

/** The API process: serves HTTP, consumes no queue. */
void startProcess('api', 'API', async (config, logger) => {
  const app = await NestFactory.create<NestFastifyApplication>(
    ApiModule.forRoot({ config, logger }),
    createHttpAdapter(logger, config.http),
    HTTP_APP_OPTIONS,
  );
  configureApi(app, logger);
  closeGracefullyOnSignals(app, logger, config.shutdownTimeoutMs, config.http.drainMs);
  await app.listen(config.http.port, config.http.host);
  const { metricsPort } = config.http;
  if (metricsPort > 0) await app.get(MetricsServer).listen(metricsPort, config.http.host);
  const port = listeningPort(app);
  logger.info({ port, metricsPort, docs: `${config.http.publicUrl}/api/v1/docs` }, 'API listening');
  reportListening(port);
});
