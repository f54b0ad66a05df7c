#!/usr/bin/env node
// Extracts the facts the plugin relies on from Lawmatics' own OpenAPI document (API v1.21.0) into
// src/upstream-facts.json: for every operation its method, path template, the query parameter names it declares, the
// request-body property names it shows (schema properties, keys of its examples, and the snake_case field names its
// description sets in code or bold), and whether it answers with a list; plus the query parameters the document's
// "Param Guide" grants to every list and every single-record request. Facts only: no prose is copied.
//
//   node packages/plugin-crm/scripts/extract-upstream-facts.mjs [path/to/lawmatics-api-v1.21.0.openapi.json]
//
// Default input: ../shared/upstream-specs/crm/lawmatics-api-v1.21.0.openapi.json relative to the repository root.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const input = resolve(process.argv[2] ?? join(repoRoot, '../shared/upstream-specs/crm/lawmatics-api-v1.21.0.openapi.json'));
const output = join(here, '../src/upstream-facts.json');

const document = JSON.parse(readFileSync(input, 'utf8'));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const IDENTIFIER = /^[a-z][a-z0-9_]*(\[\])?$/;

/** Keys of an example value: an object, or text in Postman's style with `{{variables}}` in place of values. */
function exampleKeys(value) {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value.replace(/\{\{\s*[A-Za-z0-9_]+\s*\}\}/g, 'null'));
    } catch {
      return [];
    }
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.keys(parsed) : [];
}

/** snake_case names the text sets in `code` or **bold** (`**taskable_type, taskable_id:**` gives both). */
function namesInText(text) {
  const out = new Set();
  for (const match of (text ?? '').matchAll(/`([^`\n]+)`|\*\*([^*\n]+)\*\*/g)) {
    for (const part of (match[1] ?? match[2]).split(/[,\s]+/)) {
      const name = part.replace(/[:.?]+$/, '');
      if (IDENTIFIER.test(name) && name.includes('_')) out.add(name);
    }
  }
  return out;
}

/** First-column names of the markdown table under a heading in a tag description (the supported Matter fields). */
function tableNames(text, heading) {
  const start = (text ?? '').indexOf(heading);
  if (start < 0) return [];
  const names = new Set();
  for (const line of text.slice(start).split('\n')) {
    const cell = /^\|\s*([a-z][a-z0-9_]*)\s*\|/.exec(line);
    if (cell && cell[1] !== 'attribute') names.add(cell[1]);
  }
  return [...names];
}

function isList(path, operation) {
  const schema = operation.responses?.['200']?.content?.['application/json']?.schema;
  const data = schema?.properties?.data;
  if (data?.type === 'array') return true;
  if (data?.type === 'object') return false;
  // No response schema in the document: a collection path (not ending in a {parameter}) answers with a list.
  return !/\{[^}]+\}\/?$/.test(path);
}

// ---- the Param Guide: which query parameters list and single-record requests take ----------------------------------
const tags = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
const GUIDE = ['Field Selection', 'Pagination', 'Sorting', 'Filtering', 'Filtering Examples'];
const guideNames = new Set();
for (const name of GUIDE) {
  const text = tags.get(name);
  if (text === undefined) throw new Error(`the document has no "${name}" tag`);
  // Names used as query keys in its examples (`?page=3`, `&filter_operator=<=`)...
  for (const match of text.matchAll(/[?&]([a-z_]+)=/g)) guideNames.add(match[1]);
  // ...and the names its numbered lists introduce (`1. \`filter_by\` or \`filter_field\`: ...`, `2. \`sort_by\``).
  for (const line of text.split('\n')) {
    const item = /^\s*\d+\.\s+(.*?)(?::|$)/.exec(line);
    if (item) for (const code of item[1].matchAll(/`([a-z_]+)`/g)) guideNames.add(code[1]);
  }
}
const fieldSelection = [...tags.get('Field Selection').matchAll(/[?&]([a-z_]+)=/g)].map((m) => m[1]);

// ---- operations -----------------------------------------------------------------------------------------------------
const matterFields = tableNames(tags.get('Matters (Prospects)'), 'Supported Matter Fields');
const operations = [];
for (const [path, item] of Object.entries(document.paths)) {
  for (const method of METHODS) {
    const operation = item[method];
    if (!operation) continue;
    const query = new Set();
    for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
      if (parameter.in === 'query' && parameter.name) query.add(parameter.name);
    }
    const body = new Set();
    if (['post', 'put', 'patch'].includes(method)) {
      for (const content of Object.values(operation.requestBody?.content ?? {})) {
        for (const name of Object.keys(content.schema?.properties ?? {})) body.add(name);
        if (content.schema?.example !== undefined) for (const name of exampleKeys(content.schema.example)) body.add(name);
        for (const example of Object.values(content.examples ?? {})) for (const name of exampleKeys(example.value)) body.add(name);
      }
      for (const name of namesInText(operation.description)) body.add(name);
      // The Matters tag lists the fields its Create and Update Matter endpoints take.
      if (path === '/v1/prospects' || path === '/v1/prospects/{prospect_id}') for (const name of matterFields) body.add(name);
    }
    operations.push({
      method: method.toUpperCase(),
      path,
      ...(method === 'get' ? { list: isList(path, operation) } : {}),
      ...(query.size > 0 ? { query: [...query].sort() } : {}),
      ...(body.size > 0 ? { body: [...body].sort() } : {}),
    });
  }
}

const facts = {
  source: { title: document.info?.title, operations: operations.length },
  servers: (document.servers ?? []).map((server) => server.url),
  oauth2: document.components?.securitySchemes?.oauth2?.flows?.authorizationCode ?? null,
  listQuery: [...guideNames].sort(),
  singleQuery: [...new Set(fieldSelection)].sort(),
  operations,
};
writeFileSync(output, `${JSON.stringify(facts, null, 2)}\n`);
// Keep the file as the repository's formatter writes it, so that regenerating it changes nothing but facts.
const biome = join(repoRoot, 'node_modules/.bin/biome');
if (existsSync(biome)) execFileSync(biome, ['format', '--write', output], { stdio: 'ignore' });
console.log(`${operations.length} operations, list query ${facts.listQuery.join(',')} → ${output}`);
