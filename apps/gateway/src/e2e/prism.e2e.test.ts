import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_WORKSPACE, type OperationDescription, type Plugin } from '@portico/core';
import { callrailPlugin } from '@portico/plugin-calls';
import { slackPlugin } from '@portico/plugin-chat';
import { lawmaticsPlugin } from '@portico/plugin-crm';
import { notionPlugin } from '@portico/plugin-notes';
import { clioPlugin } from '@portico/plugin-practice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { type PrismMock, type RecordingProxy, specsProblem, startPrism, startRecordingProxy } from './prism.test-support.js';
import { callrailExceptions, PRISM_ADJUSTMENTS, PRISM_EXCEPTIONS, type PrismException } from './prism-exceptions.test-support.js';

/**
 * The Prism check: every operation's ready-to-run example (the one describe_method offers) is called through a real
 * gateway, whose plugin sends it to Stoplight's Prism mocking the upstream's own published spec
 * (../shared/upstream-specs, read in place). Prism validates each request against the spec.
 *
 * The target is the issue's: at least 98 % of each spec's operations accepted — with 17 to 282 operations per spec,
 * every one of them. How operations are counted (prism-exceptions.test-support.ts lists each exception and why):
 * - passed: the request reached Prism and it found nothing wrong;
 * - not checkable: the operation is absent from the saved spec (newer than it, or left out of a reduced or partial
 *   spec), or the saved spec is wrong about it (`misjudged`, where Prism may complain only of the listed things).
 *   These are never counted as passed, and the rate is taken over the spec's checkable operations;
 * - missed: anything else Prism refuses — a listed `refused` exception, or a failure of the check.
 * Every refusal must be a listed exception, and every listed exception must still be refused (the list stays true).
 *
 * QuickBooks is not here: no OpenAPI document of its API is saved (upstream-specs/accounting has only a list of
 * node-quickbooks' methods), so there is nothing for Prism to mock.
 */
interface Target {
  plugin: Plugin;
  spec: string;
  /** The path the gateway's base URL has beyond the origin (Prism serves the spec's paths without it). */
  basePath: string;
  strip: string;
}

const ALL_TARGETS: Target[] = [
  { plugin: clioPlugin, spec: 'practice/clio-manage-api-v4.openapi.json', basePath: '/api/v4', strip: '/api/v4' },
  { plugin: lawmaticsPlugin, spec: 'crm/lawmatics-api-v1.21.0.openapi.json', basePath: '/v1', strip: '' },
  { plugin: notionPlugin, spec: 'notes/notion-openapi.2022-06-28.mcp-server-2025-05-19.json', basePath: '/v1', strip: '' },
  { plugin: slackPlugin, spec: 'chat/slack_web_openapi_v2_without_examples.json', basePath: '/api', strip: '/api' },
  { plugin: callrailPlugin, spec: 'calls/callrail-v3.partial.openapi.yml', basePath: '/v3', strip: '/v3' },
];
/** PORTICO_PRISM_ONLY=slack,notion runs the check on those upstreams only (while working on one). */
const TARGETS = ALL_TARGETS.filter(
  (t) => !process.env.PORTICO_PRISM_ONLY || process.env.PORTICO_PRISM_ONLY.split(',').includes(t.plugin.service),
);

/** The target: at least 98 % of each spec's checkable operations accepted. Every upstream holds it. */
const TARGET = 0.98;

const exceptionsOf = (plugin: Plugin): Record<string, PrismException> =>
  plugin.service === 'callrail'
    ? { ...callrailExceptions(plugin.operations.map((o) => o.name)), ...PRISM_EXCEPTIONS.callrail }
    : (PRISM_EXCEPTIONS[plugin.service] ?? {});

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
      const { service } = target.plugin;
      const proxy = await startRecordingProxy((started[i] as PrismMock).url, target.strip, PRISM_ADJUSTMENTS[service] ?? []);
      proxies[service] = proxy;
      env[`PORTICO_${service.toUpperCase()}_BASE_URL`] = `${proxy.url}${target.basePath}`;
      // A mock is no application with a rate limit: the check sends its hundreds of calls without waiting.
      env[`PORTICO_${service.toUpperCase()}_UPSTREAM_LIMITS`] = 'none';
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
    it(`${plugin.service}: the spec accepts the examples of ≥ 98 % of its checkable operations; each refusal a listed exception`, async () => {
      const proxy = proxies[plugin.service] as RecordingProxy;
      const exceptions = exceptionsOf(plugin);
      const refused: Record<string, string> = {};
      const complaints: Record<string, string[]> = {};
      const adjusted = new Set<string>();
      const operations = plugin.operations.map((o) => o.name);
      for (const name of operations) {
        const described = await client.callTool({ name: 'describe_method', arguments: { service: plugin.service, method: name } });
        const { example } = described.structuredContent as unknown as OperationDescription;
        const before = proxy.exchanges.length;
        const result = await client.callTool({ name: `call_${plugin.service}`, arguments: example.arguments });
        const sent = proxy.exchanges.slice(before);
        for (const exchange of sent) for (const reason of exchange.adjusted) adjusted.add(reason);
        const refusal = sent.find((e) => e.refusal);
        if (sent.length === 0) refused[name] = `not sent: ${JSON.stringify(result.structuredContent).slice(0, 300)}`;
        else if (refusal) {
          refused[name] = `${refusal.method} ${refusal.path} → ${refusal.refusal}`;
          complaints[name] = refusal.complaints;
        }
      }
      const kindOf = (name: string) => (name in refused ? exceptions[name]?.kind : undefined);
      const absent = operations.filter((name) => kindOf(name) === 'absent');
      const misjudged = operations.filter((name) => kindOf(name) === 'misjudged');
      const checkable = operations.length - absent.length - misjudged.length;
      const passed = operations.length - Object.keys(refused).length;
      const rate = passed / checkable;
      for (const [name, why] of Object.entries(refused)) console.info(`  ${kindOf(name) ?? 'unlisted'} ${name}: ${why.slice(0, 240)}`);
      console.info(
        `Prism check, ${plugin.service}: ${passed} of the spec's ${checkable} checkable operations accepted (${(100 * rate).toFixed(1)} %); ` +
          `not checkable: ${absent.length} absent from the spec, ${misjudged.length} the spec is wrong about`,
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
      // On an operation the spec is wrong about, Prism may complain of the listed things only.
      for (const name of misjudged) {
        const allowed = exceptions[name]?.complaints ?? [];
        expect(
          (complaints[name] ?? []).filter((c) => !allowed.some((pattern) => pattern.test(c))),
          name,
        ).toEqual([]);
      }
      // Every adjustment listed for this upstream was needed by some request.
      expect((PRISM_ADJUSTMENTS[plugin.service] ?? []).map((a) => a.reason).filter((reason) => !adjusted.has(reason))).toEqual([]);
      expect(rate).toBeGreaterThanOrEqual(TARGET);
    }, 300_000);
  }
});
