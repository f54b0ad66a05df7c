import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPlugin, type Logger, type Plugin } from '@portico/core';

/** First-party plugins, loaded when installed unless PORTICO_PLUGINS names others. */
export const FIRST_PARTY_PLUGINS = [
  '@portico/plugin-crm',
  '@portico/plugin-accounting',
  '@portico/plugin-practice',
  '@portico/plugin-notes',
  '@portico/plugin-chat',
  '@portico/plugin-calls',
] as const;

/** `notes` → `@portico/plugin-notes`; package names pass through. */
function pluginPackageName(name: string): string {
  return name.startsWith('@') || name.includes('/') ? name : `@portico/plugin-${name}`;
}

/**
 * Loads plugin packages by name. A first-party plugin that is not installed is skipped (platform teams install only
 * the ones they need); a plugin named explicitly that cannot be loaded is an error.
 */
export async function loadPlugins(names: readonly string[] | undefined, logger: Logger): Promise<Plugin[]> {
  const explicit = names !== undefined;
  const plugins: Plugin[] = [];
  for (const name of (names ?? FIRST_PARTY_PLUGINS).map(pluginPackageName)) {
    const module = await importPlugin(name);
    if (!module) {
      if (explicit) throw new Error(`plugin ${name} is not installed (install it next to the gateway, or remove it from PORTICO_PLUGINS)`);
      logger.debug({ plugin: name }, 'plugin not installed; skipped');
      continue;
    }
    const plugin = (module as { default?: unknown }).default;
    if (!isPlugin(plugin)) throw new Error(`${name} does not export a Portico plugin as its default export`);
    plugins.push(plugin);
  }
  return plugins;
}

async function importPlugin(name: string): Promise<unknown | undefined> {
  try {
    return await import(name);
  } catch (error) {
    if (!isNotFound(error, name)) throw error;
  }
  // Third-party plugins installed in the operator's project rather than beside the gateway.
  try {
    const path = createRequire(join(process.cwd(), 'package.json')).resolve(name);
    return await import(pathToFileURL(path).href);
  } catch (error) {
    if (isNotFound(error, name)) return undefined;
    throw error;
  }
}

function isNotFound(error: unknown, name: string): boolean {
  const code = (error as { code?: string }).code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(name);
}
