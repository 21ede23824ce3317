import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Environment } from './environment';
import { hostPortList } from './environment-values';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Throws a ConfigError naming each problem, when there is one. */
function refuse(problems: string[]): void {
  if (problems.length > 0)
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/** Validates the raw environment; throws a ConfigError naming every bad variable. */
export function parseEnvironment(raw: NodeJS.ProcessEnv): Environment {
  const input: Record<string, string> = {};
  for (const key of Object.keys(new Environment())) if (raw[key]) input[key] = raw[key];
  // DB_PASSWORD and REDIS_PASSWORD may legitimately be empty strings.
  const env = plainToInstance(Environment, input);
  refuse(
    validateSync(env, { whitelist: true, forbidUnknownValues: true }).map((e) => {
      const constraints = e.constraints ?? {};
      // A value of the wrong type fails its range too; the type is what to tell.
      const reason = constraints.isInt ?? constraints.isBoolean ?? Object.values(constraints)[0];
      const got = /SECRET|PASSWORD/.test(e.property)
        ? `${input[e.property]?.length ?? 0} characters`
        : JSON.stringify(input[e.property]);
      return `${e.property}: ${reason} (got ${got})`;
    }),
  );
  if (env.NODE_ENV === 'production' && !env.APP_SECRET)
    refuse(['APP_SECRET: must be set in production (at least 32 characters)']);
  if (env.BULL_BOARD_ENABLED && env.OPERATOR_PASSWORD.length < 16)
    refuse(['OPERATOR_PASSWORD: must be at least 16 characters when BULL_BOARD_ENABLED=true']);
  // A phase's timeout longer than the whole attempt's would never fire; a slow receiver allowed
  // more deliveries in flight than a healthy one would be rewarded for being slow.
  const notAbove = [
    ['WEBHOOK_CONNECT_TIMEOUT_MS', 'WEBHOOK_TIMEOUT_MS'],
    ['WEBHOOK_HEADERS_TIMEOUT_MS', 'WEBHOOK_TIMEOUT_MS'],
    ['WEBHOOK_SLOW_TARGET_IN_FLIGHT', 'WEBHOOK_TARGET_IN_FLIGHT'],
  ] as const;
  refuse(
    notAbove
      .filter(([key, limit]) => env[key] > env[limit])
      .map(([key, limit]) => `${key}: must not exceed ${limit} (got ${env[key]} > ${env[limit]})`),
  );
  // A replica serving reads lags at most the bound, and its lag is known a check interval late: an
  // account reading its own write on the primary for longer than both always sees it.
  const replicasNeed = env.DB_REPLICA_MAX_LAG_S * 1000 + env.DB_REPLICA_CHECK_INTERVAL_MS;
  if (env.DB_REPLICAS !== '' && env.DB_READ_YOUR_WRITES_MS <= replicasNeed)
    refuse([
      `DB_READ_YOUR_WRITES_MS: must exceed DB_REPLICA_MAX_LAG_S × 1000 + DB_REPLICA_CHECK_INTERVAL_MS (${replicasNeed}) when DB_REPLICAS is set (got ${env.DB_READ_YOUR_WRITES_MS})`,
    ]);
  refuse(clusterProblems(raw, env));
  if (env.SMS_DRIVER === 'http')
    refuse(
      (['SMS_API_URL', 'SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const)
        .filter((key) => env[key] === '')
        .map((key) => `${key}: must be set when SMS_DRIVER=http`),
    );
  return env;
}

/**
 * DB_HOSTS names every node of the cluster: a DB_HOST or DB_PORT beside it would be ignored, so it
 * is refused rather than left to mislead; a node listed twice is a typo.
 */
function clusterProblems(raw: NodeJS.ProcessEnv, env: Environment): string[] {
  if (env.DB_HOSTS === '') return [];
  const nodes = hostPortList(env.DB_HOSTS).map(({ host, port }) => `${host}:${port}`);
  const twice = nodes.filter((node, i) => nodes.indexOf(node) !== i);
  return [
    ...(['DB_HOST', 'DB_PORT'] as const)
      .filter((key) => raw[key])
      .map((key) => `${key}: must not be set with DB_HOSTS (DB_HOSTS lists every node)`),
    ...(twice.length > 0 ? [`DB_HOSTS: lists ${twice.join(', ')} twice`] : []),
  ];
}
