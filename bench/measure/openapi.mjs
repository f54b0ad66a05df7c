// OpenAPI generation time per plugin, in-process on the built packages.
import { percentile } from '../harness/stats.mjs';
import { importCore, importGateway } from '../workspace.mjs';

/**
 * @param {string[]} installed the installed plugins (short names)
 * @param {number} runs documents built per plugin after the first
 */
export async function measureOpenApi(installed, runs) {
  const { loadPlugins } = await importGateway();
  const { Registry, buildOpenApiDocument, silentLogger } = await importCore();
  const plugins = await loadPlugins(installed, silentLogger);
  const registry = new Registry();
  for (const plugin of plugins) registry.register(plugin);
  const out = [];
  for (const integration of registry.list()) {
    let t = performance.now();
    const first = buildOpenApiDocument(integration, { baseUrl: 'http://127.0.0.1:8787' });
    const firstMs = performance.now() - t;
    /** @type {number[]} */
    const times = [];
    for (let i = 0; i < runs; i++) {
      t = performance.now();
      buildOpenApiDocument(integration, { baseUrl: 'http://127.0.0.1:8787' });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    out.push({
      service: integration.service,
      displayName: integration.plugin.displayName,
      version: integration.plugin.version,
      operations: integration.operations.size,
      names: [...integration.operations.keys()],
      firstMs,
      medianMs: percentile(times, 0.5),
      p95Ms: percentile(times, 0.95),
      runs,
      bytes: Buffer.byteLength(JSON.stringify(first)),
    });
  }
  const largest = [...out].sort((a, b) => b.operations - a.operations)[0];
  return { plugins: out, largest: largest?.service, installed: plugins.map((p) => ({ service: p.service, version: p.version })) };
}
