// The one module of the bench that names paths inside the workspace's packages: the built gateway and core (their
// dist/ modules), the packages they depend on (in their node_modules), the plugins and their versions. When a package
// moves a module the bench uses, this file is the only one to change.
//
// Every import is lazy, made when a caller asks: the start-up breakdown times each import on its own, and each child
// process loads only what it measures. The dist/ modules are imported by URL and typed from the source they are built
// from, so that type-checking the bench needs no build.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
/** @param {string} path a path from the repository root */
const href = (path) => new URL(path, root).href;

/** The repository root, ending in a slash. */
export const ROOT = fileURLToPath(root);
/** The `portico` CLI, as `pnpm build` leaves it. */
export const GATEWAY_BIN = fileURLToPath(href('apps/gateway/dist/bin.js'));

/** @returns {Promise<typeof import('../packages/core/src/index.js')>} */
export const importCore = () => import(href('packages/core/dist/index.js'));
/** @returns {Promise<typeof import('../packages/core/src/mcp.js')>} */
export const importCoreMcp = () => import(href('packages/core/dist/mcp.js'));
/** @returns {Promise<typeof import('../packages/core/src/testing/index.js')>} */
export const importCoreTesting = () => import(href('packages/core/dist/testing/index.js'));
/** @returns {Promise<typeof import('../apps/gateway/src/index.js')>} */
export const importGateway = () => import(href('apps/gateway/dist/index.js'));
/** The V8 flags `portico` sets in its own process before it loads the gateway (apps/gateway/src/runtime/v8-flags.ts). */
export const importV8Flags = () => import(href('apps/gateway/dist/runtime/v8-flags.js'));
/**
 * node's own flags for a gateway process of the bench: what the image's entry point gives node and `serve --workers`
 * gives each worker (the young generation's size, which V8 reads only at start-up).
 * @returns {Promise<string[]>}
 */
export const gatewayNodeFlags = async () => (await importV8Flags()).startFlags(process.execArgv);
/**
 * The dashboard's middleware, which the gateway does not export: the building blocks measure it from its module.
 * @returns {Promise<typeof import('../apps/gateway/src/routes/dashboard/index.js')>}
 */
export const importDashboardRoutes = () => import(href('apps/gateway/dist/routes/dashboard/index.js'));
/**
 * The two halves of `serve --workers N`'s coordination, which the gateway does not export: the bench measures one
 * IPC round trip between them.
 * @returns {Promise<typeof import('../apps/gateway/src/workers/host.js') & typeof import('../apps/gateway/src/workers/link.js')>}
 */
export const importWorkerCoordination = async () => ({
  ...(await import(href('apps/gateway/dist/workers/host.js'))),
  ...(await import(href('apps/gateway/dist/workers/link.js'))),
});

/**
 * node-postgres as core has it (its development dependency: the store's tests and the audit partitions measure use it).
 * @returns {Promise<{ default: typeof import('../packages/core/node_modules/@types/pg/index.js') }>}
 */
export const importPg = () => import(href('packages/core/node_modules/pg/esm/index.mjs'));

/** @typedef {import('../packages/core/node_modules/got/dist/source/index.js').Method} GotMethod */

/** The got that core's upstream client runs on (same version, same module). */
export const importGot = () => import('../packages/core/node_modules/got/dist/source/index.js');
/**
 * The Koa the gateway runs on (its CommonJS entry).
 * @returns {Promise<{ default: typeof import('../apps/gateway/node_modules/@types/koa/index.js') }>}
 */
export const importKoa = () => import(href('apps/gateway/node_modules/koa/lib/application.js'));

// Packages resolved as core or the gateway resolves them (through their "exports"): needs
// --experimental-import-meta-resolve on Node 20, which run.mjs gives the children that call these.
const CORE_PACKAGE = href('packages/core/package.json');
const GATEWAY_PACKAGE = href('apps/gateway/package.json');
/** @param {string} specifier @param {string} parent */
const resolved = (specifier, parent) => import(import.meta.resolve(specifier, parent));

/**
 * The native SQLite binding core opens (the first step of the start-up breakdown).
 * @returns {Promise<unknown>}
 */
export const importSqliteBinding = () => resolved('@libsql/client/sqlite3', CORE_PACKAGE);
/** @returns {Promise<typeof import('../packages/core/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js')>} */
export const importSdkTypes = () => resolved('@modelcontextprotocol/sdk/types.js', CORE_PACKAGE);
/** @returns {Promise<typeof import('../packages/core/node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js')>} */
export const importSdkServer = () => resolved('@modelcontextprotocol/sdk/server/index.js', CORE_PACKAGE);
/** @returns {Promise<typeof import('../packages/core/node_modules/@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js')>} */
export const importSdkAjv = () => resolved('@modelcontextprotocol/sdk/validation/ajv', CORE_PACKAGE);
/**
 * The MCP transport, as the gateway resolves it.
 * @returns {Promise<typeof import('../packages/core/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js')>}
 */
export const importSdkTransport = () => resolved('@modelcontextprotocol/sdk/server/streamableHttp.js', GATEWAY_PACKAGE);

/** The six first-party plugins, by the short name of their package (plugin-<name>). */
export const FIRST_PARTY = ['crm', 'accounting', 'practice', 'notes', 'chat', 'calls'];

/**
 * The built dist/ folder of a first-party plugin.
 * @param {string} name
 */
export const pluginDist = (name) => fileURLToPath(href(`packages/plugin-${name}/dist`));

/** A plugin counts as installed when it is built and the gateway depends on it (so that it can load it). */
export function installedPlugins() {
  return FIRST_PARTY.filter(
    (name) =>
      existsSync(fileURLToPath(href(`apps/gateway/node_modules/@portico/plugin-${name}`))) &&
      existsSync(fileURLToPath(href(`packages/plugin-${name}/dist/index.js`))),
  );
}

/** @param {string} path a package folder from the repository root */
function versionOf(path) {
  try {
    /** @type {{ version?: string }} */
    const manifest = JSON.parse(readFileSync(fileURLToPath(href(`${path}/package.json`)), 'utf8'));
    return manifest.version;
  } catch {
    return undefined;
  }
}

/** The versions of the packages on the request path, as installed. */
export function packageVersions() {
  return {
    '@portico/gateway': versionOf('apps/gateway'),
    '@portico/core': versionOf('packages/core'),
    koa: versionOf('apps/gateway/node_modules/koa'),
    '@koa/router': versionOf('apps/gateway/node_modules/@koa/router'),
    '@modelcontextprotocol/sdk': versionOf('apps/gateway/node_modules/@modelcontextprotocol/sdk'),
    pino: versionOf('apps/gateway/node_modules/pino'),
    got: versionOf('packages/core/node_modules/got'),
    typebox: versionOf('packages/core/node_modules/typebox'),
    '@libsql/client': versionOf('packages/core/node_modules/@libsql/client'),
    autocannon: versionOf('node_modules/autocannon'),
  };
}
