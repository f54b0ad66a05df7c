#!/usr/bin/env node
// Extracts the facts the plugin relies on from Clio's own OpenAPI document (Clio Manage API v4, 277 operations) into
// src/upstream-facts.json: the servers, the API minor versions the document lists (and which one it calls the
// default), and for every operation its method, path template (below /api/v4, ending .json), the query parameter
// names it declares, the header parameters, and the field names of its request body inside `data` (with the ones it
// marks required). Facts only: no prose is copied.
//
//   node packages/plugin-practice/scripts/extract-upstream-facts.mjs [path/to/clio-manage-api-v4.openapi.json]
//
// Default input: ../shared/upstream-specs/practice/clio-manage-api-v4.openapi.json relative to the repository root.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const input = resolve(process.argv[2] ?? join(repoRoot, '../shared/upstream-specs/practice/clio-manage-api-v4.openapi.json'));
const output = join(here, '../src/upstream-facts.json');

const document = JSON.parse(readFileSync(input, 'utf8'));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

// "- 4.0.9    **This is the default version**" in the document's description: every listed version, and the default.
const description = document.info?.description ?? '';
const versions = [...new Set([...description.matchAll(/^\s*-\s*(4\.0\.\d+)\b/gm)].map((m) => m[1]))];
const defaultVersion = /^\s*-\s*(4\.0\.\d+)\s+\*\*This is the default version\*\*/m.exec(description)?.[1] ?? null;

/** The JSON request body's `data` object (Clio wraps every body in `{ "data": { … } }`). */
function dataSchema(operation) {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  return schema?.properties?.data;
}

const operations = [];
for (const [path, item] of Object.entries(document.paths)) {
  for (const method of METHODS) {
    const operation = item[method];
    if (!operation) continue;
    const query = new Set();
    const headers = new Set();
    for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
      if (parameter.in === 'query' && parameter.name) query.add(parameter.name);
      if (parameter.in === 'header' && parameter.name) headers.add(parameter.name);
    }
    const data = dataSchema(operation);
    const body = Object.keys(data?.properties ?? {}).sort();
    const required = [...(data?.required ?? [])].sort();
    operations.push({
      method: method.toUpperCase(),
      path,
      ...(query.size > 0 ? { query: [...query].sort() } : {}),
      ...(headers.size > 0 ? { headers: [...headers].sort() } : {}),
      ...(data ? { body } : {}),
      ...(required.length > 0 ? { required } : {}),
    });
  }
}

const facts = {
  source: { title: document.info?.title, version: document.info?.version, operations: operations.length },
  servers: (document.servers ?? []).map((server) => server.url),
  apiVersions: versions,
  defaultApiVersion: defaultVersion,
  operations,
};
writeFileSync(output, `${JSON.stringify(facts, null, 2)}\n`);
// Keep the file as the repository's formatter writes it, so that regenerating it changes nothing but facts.
const biome = join(repoRoot, 'node_modules/.bin/biome');
if (existsSync(biome)) execFileSync(biome, ['format', '--write', output], { stdio: 'ignore' });
console.log(`${operations.length} operations, API versions ${versions.join(', ')} (default ${defaultVersion}) → ${output}`);
