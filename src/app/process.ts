import { AppConfig, loadDotEnv } from '../config/app-config';
import { ConfigError } from '../config/parse-environment';

/** Reads the configuration for an entry point; a bad variable ends the process with its name. */
export function configOrExit(): AppConfig {
  try {
    loadDotEnv();
    return AppConfig.fromEnvironment();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
}
