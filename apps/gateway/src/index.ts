export { type AppOptions, createApp } from './app.js';
export { main } from './cli.js';
export { ConfigError, ENVIRONMENT, type GatewayConfig, loadConfig } from './config.js';
export { createLogger } from './logger.js';
export { FIRST_PARTY_PLUGINS, loadPlugins } from './plugins.js';
export { openRuntime, type Runtime, type RuntimeOptions } from './runtime.js';
export { type RunningGateway, type StartOptions, startGateway } from './server.js';
export type { GatewayState } from './state.js';
export { VERSION } from './version.js';
