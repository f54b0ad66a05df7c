// How the assistant tests use the gateway, as an AI assistant does: over MCP only (the official SDK client), each step
// search_methods with the words a person would type, describe_method on the operation found, then call_<service>.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';

export interface Hit {
  service: string;
  method: string;
  tool: string;
}

export interface Described {
  description: string;
  access: 'read' | 'write';
  /** One line per parameter: "type, required, …: what it is". */
  params: Record<string, string>;
}

/**
 * An operation found as the assistant finds it: search_methods with the words (`service` narrows it); `wanted` must be
 * among the top three, and is then described.
 */
export async function findOperation(
  client: Client,
  words: string,
  wanted: string,
  service?: string,
): Promise<Hit & { described: Described }> {
  const searched = await client.callTool({
    name: 'search_methods',
    arguments: { query: words, limit: 3, ...(service ? { service } : {}) },
  });
  expect(searched.isError, words).toBeFalsy();
  const { results } = searched.structuredContent as { results: Hit[] };
  const hit = results.find((r) => `${r.service}.${r.method}` === wanted);
  expect(hit, `"${words}" → ${results.map((r) => `${r.service}.${r.method}`).join(', ')}`).toBeDefined();
  const { service: found, method, tool } = hit as Hit;
  const described = await client.callTool({ name: 'describe_method', arguments: { service: found, method } });
  expect(described.isError, `describe ${wanted}`).toBeFalsy();
  return { service: found, method, tool, described: described.structuredContent as unknown as Described };
}

/** Calls a found operation; a mistake (isError) fails the task with the gateway's message. */
export async function callOperation<T>(client: Client, hit: Hit, params: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name: hit.tool, arguments: { method: hit.method, params } });
  if (result.isError) throw new Error(`${hit.service}.${hit.method}: ${JSON.stringify(result.structuredContent)}`);
  const answer = result.structuredContent as T & { portico_truncated?: unknown };
  // the assistant narrows its calls so that every answer it reasons over is whole
  expect(answer.portico_truncated, `${hit.service}.${hit.method} shortened`).toBeUndefined();
  return answer;
}
