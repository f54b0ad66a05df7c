// Maintenance script, run by hand (never by `pnpm bench`): builds bench/standins/catalog.json, the facts the stand-in
// plugins are generated from.
//
//   node bench/standins/extract.mjs [path/to/shared]     (default: ../shared next to the repository)
//
// Reads upstream-specs/{accounting,practice}/operations.tsv, the Clio OpenAPI document, the
// node-quickbooks method list and the catalog seed (seeds/001_*.txt). Writes facts only: operation names, methods,
// gateway and upstream paths, parameter names, locations, types, enums, formats, bounds and required flags. No text
// of the sources is copied; every sentence of the stand-ins is written by generate.mjs.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const SHARED = resolve(process.argv[2] ?? join(ROOT, '..', 'shared'));
const SPECS = join(SHARED, 'upstream-specs');
const OUT = join(HERE, 'catalog.json');

/** Most parameters one stand-in operation declares (path params and required params always fit first). */
const MAX_PARAMS = 25;
const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const TOKEN = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const KNOWN_FORMATS = new Set(['date', 'date-time', 'email', 'uri', 'uuid']);
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** What a parameter name may look like (`limit`, `ids[]`, `rate_for[user_id]`, `navigation.next`); sample keys are dropped. */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[[A-Za-z0-9_]*\])*(\.[A-Za-z0-9_]+)*$/;

const SERVICES = [
  {
    service: 'quickbooks',
    displayName: 'QuickBooks Online',
    dir: 'accounting',
    count: 67,
    seedSection: 'Accounting integration',
    methods: 'accounting/node-quickbooks-find-and-report-methods.txt',
    upstreamPath: (p) => p.replace(/^\/v3\/company\/\{realmId\}/, ''),
  },
  {
    service: 'clio',
    displayName: 'Clio Manage',
    dir: 'practice',
    count: 282,
    seedSection: 'Practice-management integration',
    spec: 'practice/clio-manage-api-v4.openapi.json',
    specPath: (p) => p.replace(/^\/api\/v4/, ''),
    upstreamPath: (p) => p.replace(/^\/api\/v4/, ''),
  },
];

// ---- small readers ---------------------------------------------------------------------------------------------------

function readTsv(file) {
  const [header, ...lines] = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const columns = header.split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(columns.map((column, i) => [column, (cells[i] ?? '').trim()]));
  });
}

function readSeed() {
  const dir = join(SHARED, 'seeds');
  const file = readdirSync(dir).find((name) => name.startsWith('001_') && name.endsWith('.txt'));
  if (!file) throw new Error(`no seeds/001_*.txt under ${SHARED}`);
  return readFileSync(join(dir, file), 'utf8');
}

/** The text of one `### …` section of the seed. */
function seedSection(seed, title) {
  const start = seed.split('\n').findIndex((line) => line.startsWith('### ') && line.includes(title));
  if (start < 0) throw new Error(`seed has no section "${title}"`);
  const lines = seed.split('\n').slice(start + 1);
  const end = lines.findIndex((line) => line.startsWith('### '));
  return (end < 0 ? lines : lines.slice(0, end)).join('\n');
}

/** Markdown tables of a section: [{ header: string[], rows: string[][] }]. */
function tables(text) {
  const out = [];
  let current;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      current = undefined;
      continue;
    }
    const cells = line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((cell) => cell.trim());
    if (!current) {
      current = { header: cells, rows: [] };
      out.push(current);
    } else if (!cells.every((cell) => /^:?-+:?$/.test(cell))) {
      current.rows.push(cells);
    }
  }
  return out;
}

/**
 * Operation names a seed section shows: the cells of its Operation columns. `find_x_by_phone / _by_email` is
 * expanded to `find_x_by_email`; names inside paths (after `/` or `:`) are ignored.
 */
function seedNames(section) {
  const names = new Set();
  const paths = new Map();
  for (const table of tables(section)) {
    const columns = table.header
      .map((h, i) => (/^(Operation|Operations and paths|List operation)$/.test(h) ? i : -1))
      .filter((i) => i >= 0);
    const pathColumn = table.header.indexOf('Path');
    for (const row of table.rows) {
      // a row naming one operation and one path: kept to match a name the tsv spells differently
      const path = pathColumn >= 0 ? row[pathColumn]?.match(/^\/[\w/:-]*/)?.[0] : undefined;
      if (path && /^[a-z][a-z0-9_]*$/.test(row[columns[0]] ?? '')) paths.set(row[columns[0]], path);
      for (const i of columns) {
        let previous;
        for (const match of (row[i] ?? '').matchAll(/(^|[^a-z0-9_/:[.])(_?[a-z][a-z0-9]*(?:_[a-z0-9]+)+)/g)) {
          let name = match[2];
          if (name.startsWith('_')) {
            if (!previous) continue;
            const head = `_${name.slice(1).split('_')[0]}_`;
            const at = previous.lastIndexOf(head);
            if (at < 0) continue;
            name = previous.slice(0, at) + name;
          } else {
            previous = name;
          }
          names.add(name);
        }
      }
    }
  }
  return { names, paths };
}

// ---- parameters --------------------------------------------------------------------------------------------------------

function makeResolver(spec) {
  return function deref(node) {
    let current = node;
    for (let i = 0; current && typeof current === 'object' && typeof current.$ref === 'string' && i < 20; i++) {
      const parts = current.$ref.replace(/^#\//, '').split('/');
      current = parts.reduce((at, key) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], spec);
    }
    return current ?? {};
  };
}

function typeOf(schema) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (['string', 'integer', 'number', 'boolean', 'array', 'object'].includes(type)) return type;
  if (schema.properties || schema.additionalProperties) return 'object';
  if (schema.items) return 'array';
  if (schema.enum?.every((v) => typeof v === 'string')) return 'string';
  return 'string';
}

function typeOfValue(value) {
  if (Array.isArray(value)) return 'array';
  if (value === null) return undefined;
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

/** A parameter fact from a JSON Schema. `name[]` becomes `name`, an array (the gateway accepts `name[]=` too). */
function param(name, location, rawSchema, required, deref) {
  const schema = deref(rawSchema ?? {});
  let type = typeOf(schema);
  let itemSchema = type === 'array' ? deref(schema.items ?? {}) : undefined;
  let paramName = name;
  if (paramName.endsWith('[]')) {
    paramName = paramName.slice(0, -2);
    if (type !== 'array') {
      itemSchema = schema;
      type = 'array';
    }
  }
  const out = { name: paramName, in: location, type };
  if (itemSchema) {
    const itemType = typeOf(itemSchema);
    out.items = { type: itemType };
    const itemEnum = enumOf(itemSchema, itemType);
    if (itemEnum) out.items.enum = itemEnum;
  }
  const values = enumOf(schema, type);
  if (values) out.enum = values;
  if (required) out.required = true;
  if (type === 'string' && KNOWN_FORMATS.has(schema.format)) out.format = schema.format;
  if ((type === 'integer' || type === 'number') && typeof schema.minimum === 'number') out.minimum = schema.minimum;
  if ((type === 'integer' || type === 'number') && typeof schema.maximum === 'number') out.maximum = schema.maximum;
  return out;
}

function enumOf(schema, type) {
  if (!Array.isArray(schema.enum) || (type !== 'string' && type !== 'integer')) return undefined;
  const values = [...new Set(schema.enum.filter((v) => (type === 'string' ? typeof v === 'string' && v !== '' : Number.isInteger(v))))];
  return values.length > 0 ? values : undefined;
}

/** Top-level properties of a JSON request body (Clio's `{ data: {...} }` envelope is opened). */
function bodyParams(requestBody, deref) {
  const body = deref(requestBody ?? {});
  const content = body.content ?? {};
  const jsonKey = Object.keys(content).find((key) => key.startsWith('application/json'));
  const formKey = Object.keys(content).find((key) => key === 'multipart/form-data' || key === 'application/x-www-form-urlencoded');
  const media = content[jsonKey ?? formKey];
  if (!media) return [];
  let schema = deref(media.schema ?? {});
  let examples = [media.example, ...Object.values(media.examples ?? {}).map((e) => deref(e).value)];
  const data = schema.properties?.data ? deref(schema.properties.data) : undefined;
  if (Object.keys(schema.properties ?? {}).length === 1 && data && typeOf(data) === 'object' && data.properties) {
    schema = data;
    examples = examples.map((e) => e?.data);
  }
  const required = new Set(schema.required ?? []);
  const out = Object.entries(schema.properties ?? {})
    .filter(([name]) => PARAM_NAME.test(name))
    .map(([name, property]) => param(name, 'body', property, required.has(name), deref));
  // Postman-derived documents (Lawmatics) list only some fields in the schema; their request examples name the rest.
  const known = new Set(out.map((p) => p.name));
  for (const example of examples) {
    if (!example || typeof example !== 'object' || Array.isArray(example)) continue;
    for (const [name, value] of Object.entries(example)) {
      const type = typeOfValue(value);
      if (known.has(name) || !type || !PARAM_NAME.test(name)) continue;
      known.add(name);
      const fact = { name, in: 'body', type };
      if (type === 'array') fact.items = { type: typeOfValue(value[0]) ?? 'string' };
      out.push(fact);
    }
  }
  return out;
}

function specParams(pathItem, operation, method, deref) {
  const out = [];
  for (const raw of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
    const p = deref(raw);
    if ((p.in !== 'query' && p.in !== 'path') || !PARAM_NAME.test(p.name ?? '')) continue;
    out.push(param(p.name, p.in, p.schema, p.required === true, deref));
  }
  if (WRITE_METHODS.has(method)) out.push(...bodyParams(operation.requestBody, deref));
  return out;
}

/** Path params from the gateway path (required strings), then required params, then the rest; deduplicated; capped. */
function finishParams(gatewayPath, facts) {
  const tokens = [...gatewayPath.matchAll(TOKEN)].map((m) => m[1]);
  const out = tokens.map((name) => ({ name, in: 'path', type: 'string', required: true }));
  const seen = new Set(tokens);
  const rest = facts.filter((p) => p.in !== 'path');
  const ordered = [...rest.filter((p) => p.required), ...rest.filter((p) => !p.required)];
  for (const p of ordered) {
    if (seen.has(p.name) || out.length >= MAX_PARAMS) continue;
    seen.add(p.name);
    out.push(p);
  }
  // keep the upstream order of query before body for readability
  const rank = { path: 0, query: 1, body: 2 };
  return out.sort((a, b) => rank[a.in] - rank[b.in]);
}

/** `/a/{x}/b/{y}.json` → `/a/:gx/b/:gy.json`, naming tokens after the gateway path's tokens where they line up. */
function upstreamPathOf(path, gatewayPath) {
  const gateway = [...gatewayPath.matchAll(TOKEN)].map((m) => m[1]);
  const lineUp = [...path.matchAll(/\{([^}]+)\}/g)].length === gateway.length;
  let i = 0;
  return path.replace(/\{([^}]+)\}/g, (_, name) => `:${lineUp ? gateway[i++] : name}`);
}

// ---- per-service facts that the OpenAPI documents do not carry ----------------------------------------------------------

/** Clio: `limit` bounds from the seed's conventions ("limit (1 to 200 …)", and "limit 1 to 1000" rows). */
function clioLimits(section) {
  const common = section.match(/limit \((\d+) to (\d+)/);
  const special = new Map();
  for (const table of tables(section)) {
    for (const row of table.rows) {
      const bound = (row[1] ?? '').match(/limit (\d+) to (\d+)/);
      if (bound && SNAKE_CASE.test(row[0])) special.set(row[0], [Number(bound[1]), Number(bound[2])]);
    }
  }
  return { common: common ? [Number(common[1]), Number(common[2])] : undefined, special };
}

/** Clio list parameters shared by (nearly) every `#index` operation of the document: used where the 2025-07 document lacks one. */
function clioCommonListParams(spec, deref) {
  const counts = new Map();
  let lists = 0;
  for (const item of Object.values(spec.paths)) {
    const op = item.get;
    if (!op?.operationId?.endsWith('#index')) continue;
    lists++;
    for (const p of specParams(item, op, 'GET', deref)) {
      if (p.in !== 'query') continue;
      const entry = counts.get(p.name) ?? { count: 0, fact: { ...p, enum: undefined } };
      entry.count++;
      counts.set(p.name, entry);
    }
  }
  return [...counts.values()]
    .filter((e) => e.count >= lists * 0.8)
    .map((e) => Object.fromEntries(Object.entries(e.fact).filter(([, v]) => v !== undefined)));
}

/**
 * Clio operations missing from the saved 2025-07 document (see practice/SOURCES.md): bank transaction writes take the
 * writable fields of the BankTransaction record; the Clio File submissions listing takes the common list parameters
 * and the two date filters the seed names for it.
 */
function clioMissing(row, spec, deref, commonList) {
  const method = row.method;
  if (row.operation.includes('bank_transaction') && WRITE_METHODS.has(method)) {
    const record = deref(spec.components.schemas.BankTransaction_base);
    const readOnly = new Set(['id', 'etag', 'created_at', 'updated_at', 'current_account_balance', 'read_only_confirmation']);
    const fields = [{ name: 'fields', in: 'query', type: 'string' }];
    for (const [name, property] of Object.entries(record.properties ?? {})) {
      if (!readOnly.has(name)) fields.push(param(name, 'body', property, false, deref));
    }
    return fields;
  }
  if (row.operation === 'list_clio_file_submissions') {
    return [
      ...commonList,
      { name: 'submitted_after', in: 'query', type: 'string', format: 'date' },
      { name: 'submitted_before', in: 'query', type: 'string', format: 'date' },
    ];
  }
  if (method === 'GET') return [{ name: 'fields', in: 'query', type: 'string' }];
  return [];
}

/** QuickBooks: criteria of find_*, report options of report_*, and the query placeholders of the other calls. */
function quickbooksParams(row, section) {
  const out = [];
  if (row.kind === 'find') {
    const names = (row.notes.match(/criteria: ([\w/]+)/)?.[1] ?? '').split('/').filter(Boolean);
    const max = Number(row.upstream_path.match(/limit<=(\d+)/)?.[1] ?? 0) || undefined;
    for (const name of names) {
      if (name === 'limit') out.push({ name, in: 'query', type: 'integer', minimum: 1, ...(max ? { maximum: max } : {}) });
      else if (name === 'offset') out.push({ name, in: 'query', type: 'integer', minimum: 0 });
      else if (name === 'fetchAll') out.push({ name, in: 'query', type: 'boolean' });
      else out.push({ name, in: 'query', type: 'string' });
    }
  } else if (row.kind === 'report') {
    const names = (row.notes.match(/\(([^)]*)\)/)?.[1] ?? '').split(',').filter((n) => /^[a-z_]+$/.test(n));
    const methods = section.match(/accounting_method \((\w+) or (\w+)\)/);
    for (const name of names) {
      if (name.endsWith('_date')) out.push({ name, in: 'query', type: 'string', format: 'date' });
      else if (name === 'accounting_method' && methods) out.push({ name, in: 'query', type: 'string', enum: [methods[1], methods[2]] });
      else out.push({ name, in: 'query', type: 'string' });
    }
  } else {
    for (const match of row.upstream_path.matchAll(/[?&](\w+)=\{(\w+)\}/g)) {
      const [, name, placeholder] = match;
      if (name === 'minorversion' || name === 'query') continue;
      if (placeholder === 'csv') out.push({ name, in: 'query', type: 'array', items: { type: 'string' }, required: true });
      else if (placeholder === 'iso') out.push({ name, in: 'query', type: 'string', format: 'date-time', required: true });
      else out.push({ name, in: 'query', type: 'string', required: true });
    }
  }
  return out;
}

/**
 * JSON as the repository's formatter (Biome, width 140) leaves it: parameter facts, upstream routes and arrays of them
 * or of scalars on one line when they fit, everything else expanded, so that `biome check --write` changes nothing.
 * `prefix` is the width of what precedes the value on its line (indent and key).
 */
function toJson(value, indent, prefix) {
  const inner = `${indent}  `;
  const scalar = (v) => v === null || typeof v !== 'object';
  const flat = (v) =>
    scalar(v)
      ? JSON.stringify(v)
      : Array.isArray(v)
        ? `[${v.map(flat).join(', ')}]`
        : `{ ${Object.entries(v)
            .map(([k, x]) => `${JSON.stringify(k)}: ${flat(x)}`)
            .join(', ')} }`;
  if (scalar(value)) return JSON.stringify(value);
  // parameter facts and upstream routes are written on one line; Biome keeps an object that is on one line and fits
  const small = (v) => scalar(v) || (!Array.isArray(v) && ((typeof v.name === 'string' && typeof v.in === 'string') || 'method' in v));
  const inlineable = Array.isArray(value) ? value.every(small) : small(value);
  if (inlineable && prefix + flat(value).length + 1 <= 140) return flat(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${toJson(v, inner, inner.length)}`).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([k, v]) => {
    const head = `${inner}${JSON.stringify(k)}: `;
    return `${head}${toJson(v, inner, head.length)}`;
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

// ---- main ------------------------------------------------------------------------------------------------------------------

/** The registry's route key: same method and same segments, any parameter name matching any other. */
function routeKey(method, path) {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${method} ${trimmed.replace(TOKEN, ':')}`;
}

const seed = readSeed();
const catalog = { generatedBy: 'bench/standins/extract.mjs', services: [] };
const notes = [];

for (const config of SERVICES) {
  const rows = readTsv(join(SPECS, config.dir, 'operations.tsv'));
  const section = seedSection(seed, config.seedSection);
  const seen = seedNames(section);
  const shownBySeed = new Set(seen.names);
  const tsvNames = new Set(rows.map((r) => r.operation));
  // names the seed shows that the tsv spells differently (words that are no operation, like `jurisdiction_id`, are left out):
  // matched by their path when the seed gives one; the tsv name is kept
  const verbs = new Set(rows.map((r) => r.operation.split('_')[0]));
  const samePath = (a, b) => routeKey('GET', a.replaceAll('-', '_')) === routeKey('GET', b.replaceAll('-', '_'));
  for (const name of [...shownBySeed].filter((n) => !tsvNames.has(n) && verbs.has(n.split('_')[0]))) {
    const path = seen.paths.get(name);
    const row = path ? rows.find((r) => r.method === 'GET' && samePath(r.gateway_path, path)) : undefined;
    if (row) shownBySeed.add(row.operation);
    notes.push(
      `${config.service}: the seed's ${name} is not in operations.tsv${row ? `; same path as ${row.operation} (taken as shown)` : ''}`,
    );
  }

  const spec = config.spec ? JSON.parse(readFileSync(join(SPECS, config.spec), 'utf8')) : undefined;
  const deref = spec ? makeResolver(spec) : (x) => x ?? {};
  const byId = new Map();
  const byRoute = new Map();
  if (spec) {
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === 'parameters' || typeof op !== 'object') continue;
        if (op.operationId) byId.set(op.operationId, { path, item, op });
        byRoute.set(`${method.toUpperCase()} ${path}`, { path, item, op });
      }
    }
  }
  const limits = config.service === 'clio' ? clioLimits(section) : undefined;
  const commonList = config.service === 'clio' ? clioCommonListParams(spec, deref) : [];

  // selection: what the seed shows first, then the rest, both in tsv order
  const shown = (r) => r.shown_in_seed === 'yes' || r.shown_in_seed === 'family' || shownBySeed.has(r.operation);
  const candidates = [...rows.filter(shown), ...rows.filter((r) => !shown(r))];
  const picked = new Set();
  const names = new Set();
  const routes = new Map();
  for (const row of candidates) {
    if (picked.size >= config.count) break;
    if (!SNAKE_CASE.test(row.operation)) {
      notes.push(`${config.service}: skipped ${row.operation} (not a snake_case name)`);
      continue;
    }
    const key = routeKey(row.method, row.gateway_path);
    if (names.has(row.operation) || routes.has(key)) {
      notes.push(
        `${config.service}: skipped ${row.operation} (${names.has(row.operation) ? 'name' : `route taken by ${routes.get(key)}`})`,
      );
      continue;
    }
    names.add(row.operation);
    routes.set(key, row.operation);
    picked.add(row);
  }
  if (picked.size !== config.count) throw new Error(`${config.service}: only ${picked.size} of ${config.count} operations`);

  const operations = [];
  let fromSpec = 0;
  for (const row of rows.filter((r) => picked.has(r))) {
    const rawUpstream = row.upstream_path.replace(/\s*\(.*$/, '').replace(/\?.*$/, '');
    let facts;
    if (config.service === 'quickbooks') {
      facts = quickbooksParams(row, section);
    } else {
      const found = byId.get(row.upstream_operation_id) ?? byRoute.get(`${row.upstream_method} ${config.specPath(rawUpstream)}`);
      if (found) {
        fromSpec++;
        facts = specParams(found.item, found.op, row.upstream_method, deref);
      } else if (config.service === 'clio') {
        facts = clioMissing(row, spec, deref, commonList);
        const from = facts.some((p) => p.in === 'body')
          ? 'the BankTransaction record schema'
          : row.operation.startsWith('list_')
            ? 'the common list filters and the seed'
            : 'its path (and fields for a GET) only';
        notes.push(`clio: ${row.operation} is not in the saved OpenAPI document; parameters from ${from}`);
      } else {
        facts = [];
        notes.push(`${config.service}: ${row.operation} has no OpenAPI operation`);
      }
      if (limits) {
        const bound = limits.special.get(row.operation) ?? limits.common;
        for (const p of facts) {
          if (p.name === 'limit' && p.type === 'integer' && bound) [p.minimum, p.maximum] = bound;
        }
      }
    }
    operations.push({
      name: row.operation,
      method: row.method,
      path: row.gateway_path,
      upstream: { method: row.upstream_method, path: upstreamPathOf(config.upstreamPath(rawUpstream), row.gateway_path) },
      params: finishParams(row.gateway_path, facts),
    });
  }
  const byShown = rows.filter((r) => picked.has(r) && shown(r)).length;
  notes.push(
    `${config.service}: ${operations.length} operations (${byShown} shown by the seed or marked yes/family in the tsv` +
      `${spec ? `, ${fromSpec} matched in the OpenAPI document` : ''}), ${operations.reduce((n, o) => n + o.params.length, 0)} params`,
  );
  catalog.services.push({ service: config.service, displayName: config.displayName, operationCount: operations.length, operations });
}

writeFileSync(OUT, `${toJson(catalog, '', 0)}\n`);
for (const note of notes) console.log(note);
console.log(`wrote ${OUT}`);
