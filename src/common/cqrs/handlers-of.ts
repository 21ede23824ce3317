import type { Type } from '@nestjs/common';

/**
 * The handlers a module registers, by the files that declare them
 * (`handlersOf(addonCommands, addonQueries)` after `import * as addonCommands from
 * './addon.commands'`): every class such a file exports whose name ends in `Handler`, so that a
 * handler added to a registered file cannot be left out of its module's providers.
 */
export function handlersOf(...files: Record<string, unknown>[]): Type[] {
  return files.flatMap((file) =>
    Object.entries(file)
      .filter(([name, value]) => name.endsWith('Handler') && typeof value === 'function')
      .map(([, value]) => value as Type),
  );
}
