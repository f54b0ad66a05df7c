import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, type OperationDescription, type Plugin } from '@portico/core';
import { slackPlugin } from '@portico/plugin-chat';
import { lawmaticsPlugin } from '@portico/plugin-crm';
import { notionPlugin } from '@portico/plugin-notes';
import { clioPlugin } from '@portico/plugin-practice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { type PrismMock, type RecordingProxy, specsProblem, startPrism, startRecordingProxy } from './prism.test-support.js';
import { PRISM_EXCEPTIONS } from './prism-exceptions.test-support.js';

/**
 * The Prism check: every operation's ready-to-run example (the one describe_method offers) is called through a real
 * gateway, whose plugin sends it to Stoplight's Prism mocking the upstream's own published spec
 * (../shared/upstream-specs, read in place). Prism validates each request against the spec; at least 98 % of each
 * plugin's operations must be accepted, and every operation that is not is listed with its reason in
 * prism-exceptions.test-support.ts — an exception that starts to pass must be taken off the list.
 */
interface Target {
  plugin: Plugin;
  spec: string;
  /** The path the gateway's base URL has beyond the origin (Prism serves the spec's paths without it). */
  basePath: string;
  strip: string;
}

const TARGETS: Target[] = [
  { plugin: clioPlugin, spec: 'practice/clio-manage-api-v4.openapi.json', basePath: '/api/v4', strip: '/api/v4' },
  { plugin: lawmaticsPlugin, spec: 'crm/lawmatics-api-v1.21.0.openapi.json', basePath: '/v1', strip: '' },
  { plugin: notionPlugin, spec: 'notes/notion-openapi.2022-06-28.mcp-server-2025-05-19.json', basePath: '/v1', strip: '' },
  { plugin: slackPlugin, spec: 'chat/slack_web_openapi_v2_without_examples.json', basePath: '/api', strip: '/api' },
];

/** The target: at least 98 % of each spec's operations accepted. */
const TARGET = 0.98;
/**
 * Below the target today, the pass rate each holds (a floor, so that it cannot drop; raise it to TARGET as the
 * exceptions are settled): Lawmatics sends ids as strings where its spec wants numbers and JSON where it lists
 * multipart; the saved Notion spec is the reduced one of Notion's MCP server; the saved Slack spec predates Bearer
 * tokens and JSON bodies. Clio holds the target.
 */
const PASS_RATE: Record<string, number> = { lawmatics: 75 / 86, notion: 16 / 20, slack: 5 / 17 };

const problem = specsProblem(TARGETS.map((t) => t.spec));

describe.skipIf(problem !== undefined)('the Prism check: every example against the upstream’s own spec', () => {
  const mocks: PrismMock[] = [];
  const proxies: Record<string, RecordingProxy> = {};
  let gateway: TestGateway;
  let client: Client;

  beforeAll(async () => {
    const started = await Promise.all(TARGETS.map((t) => startPrism(t.spec)));
    mocks.push(...started);
    const env: Record<string, string> = {};
    for (const [i, target] of TARGETS.entries()) {
      const proxy = await startRecordingProxy((started[i] as PrismMock).url, target.strip);
      proxies[target.plugin.service] = proxy;
      env[`PORTICO_${target.plugin.service.toUpperCase()}_BASE_URL`] = `${proxy.url}${target.basePath}`;
      // A mock is no application with a rate limit: the check sends its hundreds of calls without waiting.
      env[`PORTICO_${target.plugin.service.toUpperCase()}_UPSTREAM_LIMITS`] = 'none';
    }
    gateway = await startTestGateway({ plugins: TARGETS.map((t) => t.plugin), env });
    for (const { plugin } of TARGETS) {
      await gateway.runtime.engine.connectToken(DEFAULT_WORKSPACE, plugin.service, 'prism-check-token');
      await gateway.runtime.engine.configureIntegration(DEFAULT_WORKSPACE, plugin.service, { mcpEnabled: true });
    }
    client = await connectMcp(gateway.url, gateway.key);
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    for (const proxy of Object.values(proxies)) await proxy.close();
    for (const mock of mocks) await mock.close();
  });

  for (const { plugin } of TARGETS) {
    it(`${plugin.service}: the spec accepts the examples (≥ 98 % of its operations where reached); each refusal a listed exception`, async () => {
      const proxy = proxies[plugin.service] as RecordingProxy;
      const exceptions = PRISM_EXCEPTIONS[plugin.service] ?? {};
      const refused: Record<string, string> = {};
      const operations = plugin.operations.map((o) => o.name);
      for (const name of operations) {
        const described = await client.callTool({ name: 'describe_method', arguments: { service: plugin.service, method: name } });
        const { example } = described.structuredContent as unknown as OperationDescription;
        const before = proxy.exchanges.length;
        const result = await client.callTool({ name: `call_${plugin.service}`, arguments: example.arguments });
        const sent = proxy.exchanges.slice(before);
        const refusal = sent.find((e) => e.refusal);
        if (sent.length === 0) refused[name] = `not sent: ${JSON.stringify(result.structuredContent).slice(0, 300)}`;
        else if (refusal) refused[name] = `${refusal.method} ${refusal.path} → ${refusal.refusal}`;
      }
      const absent = Object.keys(refused).filter((name) => exceptions[name]?.kind === 'absent');
      const inSpec = operations.length - absent.length;
      const passed = operations.length - Object.keys(refused).length;
      const rate = passed / inSpec;
      console.info(
        `Prism check, ${plugin.service}: ${passed} of the spec's ${inSpec} operations accepted (${(100 * rate).toFixed(1)} %); ${absent.length} operations not in the spec`,
      );
      // Every refusal is a listed exception, and every listed exception is still refused (the list stays true).
      expect(
        Object.keys(refused)
          .filter((name) => !(name in exceptions))
          .map((name) => `${name}: ${refused[name]}`),
      ).toEqual([]);
      expect(Object.keys(exceptions).filter((name) => !(name in refused))).toEqual([]);
      // An operation listed as absent from the spec is one Prism finds no route or method for.
      for (const name of absent) expect(refused[name], name).toMatch(/NO_(PATH|METHOD)_MATCHED_ERROR/);
      expect(rate).toBeGreaterThanOrEqual(PASS_RATE[plugin.service] ?? TARGET);
    }, 300_000);
  }
});
