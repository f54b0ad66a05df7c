// How clients learn the operations: the MCP discovery section (tools/list, describe_method, the size of each tool) and
// the OpenAPI generation section of the report.
import { int, kib, ms, table } from './markdown.mjs';

/**
 * @param {import('../results.mjs').Results} results
 * @returns {string[]}
 */
export function discoverySection(results) {
  const disc = results.discovery;
  const L = ['## MCP discovery', ''];
  L.push(
    `All plugins (${disc.integrations.join(', ')}) connected through \`PUT /api/admin/connections/{service}\`; one keep-alive client, requests one at a time.`,
    '',
  );
  L.push(
    table(
      ['request', 'first call ms', 'p50 ms', 'p99 ms', 'samples', 'response size'],
      [
        [
          '`tools/list`',
          ms(disc.toolsList.firstMs),
          ms(disc.toolsList.p50),
          ms(disc.toolsList.p99),
          int(disc.toolsList.samples),
          `${int(disc.toolsList.bytes)} B (${kib(disc.toolsList.bytes)})`,
        ],
        [
          `\`tools/call describe_method\` (all ${disc.describe.operations} operations in turn)`,
          '–',
          ms(disc.describe.p50),
          ms(disc.describe.p99),
          int(disc.describe.samples),
          `median ${int(disc.describe.medianBytes)} B, largest ${int(disc.describe.maxBytes)} B`,
        ],
      ],
    ),
    '',
  );
  L.push(
    table(
      ['tool', 'operations in enum', 'bytes (JSON)', 'of which the method enum'],
      disc.toolsList.tools.map((t) => [
        `\`${t.name}\``,
        t.operations ? int(t.operations) : '–',
        int(t.bytes),
        t.enumBytes ? int(t.enumBytes) : '–',
      ]),
    ),
    '',
  );
  return L;
}

/**
 * @param {import('../results.mjs').Results} results
 * @returns {string[]}
 */
export function openApiSection(results) {
  const { openapi } = results;
  const L = ['## OpenAPI generation', ''];
  L.push(
    `\`buildOpenApiDocument\` in-process on the built packages, per plugin: the first call (cold) and the median / p95 of ${openapi.plugins[0]?.runs ?? 0} more. ` +
      `Largest plugin: **${openapi.largest}**.`,
    '',
  );
  L.push(
    table(
      ['service', 'operations', 'first call ms', 'median ms', 'p95 ms', 'document size'],
      [...openapi.plugins]
        .sort((a, b) => b.operations - a.operations)
        .map((p) => [
          p.service === openapi.largest ? `**${p.service}**` : p.service,
          int(p.operations),
          ms(p.firstMs),
          ms(p.medianMs),
          ms(p.p95Ms),
          `${int(p.bytes)} B`,
        ]),
    ),
    '',
  );
  return L;
}
