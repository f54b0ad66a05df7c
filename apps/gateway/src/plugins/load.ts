import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

export interface LoadPluginsOptions {
  /** Plugins loaded on top of `names` (or of the first-party ones): PORTICO_EXTRA_PLUGINS. Each must be installed. */
  extra?: readonly string[];
  /** The operator's project, where third-party plugins are installed (its node_modules and their parents). */
  cwd?: string;
}

/** `notes` → `@portico/plugin-notes`; package names and file paths pass through. */
function pluginPackageName(name: string): string {
  return name.startsWith('@') || name.includes('/') || name.startsWith('.') ? name : `@portico/plugin-${name}`;
}

/**
 * Loads plugin packages by name. A first-party plugin that is not installed is skipped (platform teams install only
 * the ones they need); a plugin named explicitly (PORTICO_PLUGINS or PORTICO_EXTRA_PLUGINS) that cannot be loaded is
 * an error. A plugin is looked for beside the gateway, then in the operator's project with ESM resolution (`import`
 * export conditions).
 */
export async function loadPlugins(
  names: readonly string[] | undefined,
  logger: Logger,
  options: LoadPluginsOptions = {},
): Promise<Plugin[]> {
  const cwd = options.cwd ?? process.cwd();
  const wanted = new Map<string, boolean>(); // package name → named explicitly
  for (const name of names ?? FIRST_PARTY_PLUGINS) wanted.set(pluginPackageName(name), names !== undefined);
  for (const name of options.extra ?? []) wanted.set(pluginPackageName(name), true);
  const plugins: Plugin[] = [];
  for (const [name, explicit] of wanted) {
    const found = await importPlugin(name, cwd);
    if (!found) {
      if (explicit) {
        throw new Error(
          `plugin ${name} is not installed (install it in this project or next to the gateway, or remove it from PORTICO_PLUGINS / PORTICO_EXTRA_PLUGINS)`,
        );
      }
      logger.debug({ plugin: name }, 'plugin not installed; skipped');
      continue;
    }
    const plugin = (found.module as { default?: unknown }).default;
    if (!isPlugin(plugin)) throw new Error(notAPlugin(name, found));
    plugins.push(plugin);
  }
  return plugins;
}

interface Found {
  module: object;
  /** The entry file, when known. */
  file: string | undefined;
}

const DEFINE = '`export default definePlugin({ … })` (definePlugin from @portico/core)';

/** Says what to change in a package that is not an ES module whose default export is a Portico plugin. */
function notAPlugin(name: string, { module, file }: Found): string {
  if (file && isCommonJs(file)) return commonJsMessage(name, file);
  const exports = module as Record<string, unknown>;
  if (!('default' in exports)) {
    const named = Object.keys(exports);
    const plugin = named.find((key) => isPlugin(exports[key]));
    const hint = plugin ? `; it exports a plugin as "${plugin}": add \`export default ${plugin};\`` : '';
    return `${name} has no default export (named exports: ${named.join(', ') || 'none'})${hint}. A Portico plugin's entry module ends with ${DEFINE}`;
  }
  const value = exports.default;
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return `${name}'s default export is not a Portico plugin (got ${got} without the plugin brand): export what definePlugin returns, ${DEFINE}`;
}

function commonJsMessage(name: string, file: string): string {
  return `${name} is CommonJS (${file}): Portico plugins are ES modules. Add "type": "module" to its package.json (or name the file .mjs), use import instead of require, and end the entry module with ${DEFINE}`;
}

async function importPlugin(name: string, cwd: string): Promise<Found | undefined> {
  // Beside the gateway (or an absolute file path); a relative path is the operator's, from cwd.
  if (!name.startsWith('.')) {
    try {
      return { module: await import(name), file: isAbsolute(name) ? name : besideGateway(name) };
    } catch (error) {
      if (!isNotFound(error, name)) throw explain(error, name, isAbsolute(name) ? name : besideGateway(name));
    }
  }
  // Third-party plugins installed in the operator's project, resolved as Node's ESM loader would.
  const file = resolveFromProject(name, cwd);
  if (file === undefined) return undefined;
  try {
    return { module: await import(pathToFileURL(file).href), file };
  } catch (error) {
    throw explain(error, name, file);
  }
}

/** A failure to load a CommonJS file is most likely its being CommonJS (require of an ES module, no export default). */
function explain(error: unknown, name: string, file: string | undefined): unknown {
  return file && isCommonJs(file) ? new Error(commonJsMessage(name, file), { cause: error }) : error;
}

function besideGateway(name: string): string | undefined {
  try {
    const url = import.meta.resolve(name);
    return url.startsWith('file:') ? fileURLToPath(url) : undefined;
  } catch {
    return undefined;
  }
}

function isNotFound(error: unknown, name: string): boolean {
  const code = (error as { code?: string }).code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(name);
}

/** Whether Node loads this file as CommonJS: `.cjs`, or `.js` without `"type": "module"` in the nearest package.json. */
function isCommonJs(file: string): boolean {
  const extension = extname(file);
  if (extension === '.cjs') return true;
  if (extension !== '.js') return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return readJson(manifest).type !== 'module';
    if (dirname(dir) === dir) return true;
  }
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** The conditions Node's ESM loader matches in `exports`, in its order of preference (first key in the map wins). */
const CONDITIONS = new Set(['node', 'import', 'default']);

/**
 * Resolves a package specifier (`@acme/plugin`, `@acme/plugin/sub`) or a path from the operator's project as Node's ESM
 * loader would — node_modules of the directory and its parents, `exports` with the `import` condition, else `main` —
 * without `import.meta.resolve`'s parent argument, which Node 20 keeps behind a flag. Undefined when not installed.
 */
export function resolveFromProject(specifier: string, cwd: string): string | undefined {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const path = resolve(cwd, specifier);
    if (!existsSync(path)) return undefined;
    // A plugin's folder (`PORTICO_EXTRA_PLUGINS=.`): its package.json says which file to load, as for an installed one.
    const manifest = join(path, 'package.json');
    if (statSync(path).isDirectory() && existsSync(manifest)) {
      const file = packageEntry(path, readJson(manifest), '.', specifier);
      return file === undefined ? undefined : realpathSync(file);
    }
    return path;
  }
  const parts = specifier.split('/');
  const packageName = (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
  const subpath = `.${specifier.slice(packageName.length)}`;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', packageName);
    const manifest = join(root, 'package.json');
    if (existsSync(manifest)) {
      const file = packageEntry(root, readJson(manifest), subpath, specifier);
      return file === undefined ? undefined : realpathSync(file);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function packageEntry(root: string, manifest: Record<string, unknown>, subpath: string, specifier: string): string | undefined {
  const exports = manifest.exports;
  if (exports !== undefined && exports !== null) {
    const map =
      typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'))
        ? (exports as Record<string, unknown>)
        : { '.': exports };
    let target: string | undefined;
    if (subpath in map) target = pickCondition(map[subpath]);
    else {
      for (const [key, value] of Object.entries(map)) {
        const star = key.indexOf('*');
        if (star < 0) continue;
        const [prefix, suffix] = [key.slice(0, star), key.slice(star + 1)];
        if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1) {
          target = pickCondition(value)?.replaceAll('*', subpath.slice(prefix.length, subpath.length - suffix.length));
          break;
        }
      }
    }
    if (target === undefined) {
      throw Object.assign(
        new Error(
          `${specifier} is installed (${root}) but its package.json "exports" offers no "import" or "default" entry for "${subpath}"`,
        ),
        { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' },
      );
    }
    return join(root, target);
  }
  if (subpath !== '.') return existsSync(join(root, subpath)) ? join(root, subpath) : undefined;
  const main = typeof manifest.main === 'string' ? manifest.main : undefined;
  const candidates = [...(main ? [main, `${main}.js`, join(main, 'index.js')] : []), 'index.js'];
  return candidates.map((candidate) => join(root, candidate)).find((path) => existsSync(path));
}

/** The target `exports` gives for the conditions Node's ESM loader uses; undefined when none matches. */
function pickCondition(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const item of target) {
      const picked = pickCondition(item);
      if (picked !== undefined) return picked;
    }
    return undefined;
  }
  if (typeof target === 'object' && target !== null) {
    for (const [condition, value] of Object.entries(target)) {
      if (!CONDITIONS.has(condition)) continue;
      const picked = pickCondition(value);
      if (picked !== undefined) return picked;
    }
  }
  return undefined;
}
