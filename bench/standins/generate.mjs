// Stand-in plugins for `pnpm bench`: one generated ESM module per service of catalog.json, written the way the real
// plugins are (literal defineOperation declarations with their own prose), so that loading, registering, validating
// and describing them costs what the real QuickBooks Online and Clio Manage plugins will cost. They are a
// measuring device only: never shipped, never loaded by the gateway outside the benchmark, and they call nothing.
//
//   import { generateStandins } from './standins/generate.mjs';
//   const written = await generateStandins(outDir, coreUrl);   // [{ service, file, operations }]
//
//   node bench/standins/generate.mjs --check    generates into a temp dir, registers the stand-ins with the built real
//                                                plugins, builds their OpenAPI documents and validates every example.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const CATALOG = join(HERE, 'catalog.json');

/** Facts of each provider that the catalog does not carry: what the application is, and its OAuth 2.0 endpoints. */
const PROVIDERS = {
  quickbooks: {
    kind: 'small-business accounting',
    baseUrl: 'https://quickbooks.standin.invalid/v3/company/realm',
    token: 'An Intuit OAuth access token for one QuickBooks Online company, sent as a Bearer token; it expires after an hour.',
    oauth2: {
      authorizeUrl: 'https://appcenter.intuit.com/connect/oauth2',
      tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
      revokeUrl: 'https://developer.api.intuit.com/v2/oauth2/tokens/revoke',
      revokeStyle: 'rfc7009',
      scopes: ['com.intuit.quickbooks.accounting'],
      clientAuth: 'basic',
      realmFact: true,
    },
  },
  clio: {
    kind: 'legal practice management',
    baseUrl: 'https://clio.standin.invalid/api/v4',
    token: 'A Clio Manage OAuth access token, sent as a Bearer token; it is valid in the region that issued it.',
    oauth2: {
      authorizeUrl: 'https://app.clio.com/oauth/authorize',
      tokenUrl: 'https://app.clio.com/oauth/token',
      revokeUrl: 'https://app.clio.com/oauth/deauthorize',
      revokeStyle: 'rfc7009',
      clientAuth: 'body',
    },
  },
};

const SUMMARY = [40, 60];
const DESCRIPTION = [250, 350];
const PARAM = [60, 100];
const TOKEN = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// ---- text helpers ------------------------------------------------------------------------------------------------------

const human = (name) =>
  name
    .replace(/\[(\w+)\]/g, ' $1')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_.]+/g, ' ')
    .trim()
    .toLowerCase();
/** `${before}${n}${after}` when n > 0, else nothing. */
const more = (n, before, after = '') => (n > 0 ? `${before}${n}${after}` : '');
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const title = (text) => text.split(' ').map(capital).join(' ');
const listOf = (items, joiner = 'and') =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${joiner} ${items[items.length - 1]}`;

function clip(text, max) {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[,;:]$/, '')}…`;
}

/** The first candidate within [min, max]; else the shortest one padded (or clipped) into range. */
function fitText(candidates, [min, max], pads = []) {
  const ok = candidates.find((c) => c.length >= min && c.length <= max);
  if (ok) return ok;
  let text = candidates.find((c) => c.length <= max) ?? candidates[candidates.length - 1];
  for (const pad of pads) {
    if (text.length >= min) break;
    if ((text + pad).length <= max) text += pad;
  }
  return clip(text, max);
}

/** Sentences in priority order, added while they fit under max; fillers are added until min is reached. */
function paragraph(sentences, fillers, [min, max]) {
  const out = [];
  let length = -1;
  for (const s of [...sentences.filter(Boolean)]) {
    if (length + 1 + s.length <= max) {
      out.push(s);
      length += 1 + s.length;
    }
  }
  for (const s of fillers) {
    if (length >= min) break;
    if (length + 1 + s.length <= max) {
      out.push(s);
      length += 1 + s.length;
    }
  }
  return clip(out.join(' '), max);
}

// ---- what an operation is, from its name and path ---------------------------------------------------------------------

function describeShape(op, service, byPath) {
  const words = op.name.split('_');
  const verb = words[0];
  const rest = words.slice(1);
  const by = rest.indexOf('by');
  const thing = human((by > 0 ? rest.slice(0, by) : rest).join('_')) || human(service.service);
  const key = by > 0 ? human(rest.slice(by + 1).join('_')) : undefined;
  const tokens = [...op.path.matchAll(TOKEN)].map((m) => m[1]);
  // where a path id comes from: the GET operation on the path up to that token (`/activities/:id` → list_activities)
  const sources = {};
  for (const token of tokens) {
    const prefix = op.path.slice(0, op.path.indexOf(`:${token}`) - 1);
    const source = byPath.get(`GET ${prefix}`);
    if (source && source !== op.name) sources[token] = source;
  }
  return { verb, thing, key, tokens, sources };
}

function summaryOf(op, shape, app) {
  const { verb, thing, key } = shape;
  const c = {
    list: [`List ${thing} in ${app}, one page at a time`, `List ${thing} with filters and paging`, `List ${thing}`],
    get:
      shape.tokens.length > 0
        ? [`Retrieve one ${thing} from ${app} by its id`, `Retrieve one ${thing} by its id`, `Retrieve one ${thing}`]
        : [`Retrieve the ${thing} of the connected ${app} account`, `Retrieve the ${thing} of the connected account`],
    change: [`List ${app} records changed since a given time`, 'List records changed since a given time'],
    create: [`Create a new ${thing} in ${app}`, `Create a new ${thing} from the given fields`, `Create a ${thing}`],
    update: [`Update the fields of one ${thing} in ${app}`, `Update the fields of one ${thing}`, `Update one ${thing}`],
    delete: [`Delete one ${thing} from ${app} by its id`, `Delete one ${thing} by its id`, `Delete one ${thing}`],
    find: key
      ? [`Find ${thing} records in ${app} by ${key}`, `Find ${thing} records by ${key}`]
      : [`Search ${app} ${thing} with a query filter`, `Search ${thing} with a filter and paging`, `Search ${thing}`],
    report: [`Run the ${title(thing)} report in ${app}`, `Run the ${title(thing)} report`],
    search: [`Search ${thing} in ${app} by name or text`, `Search ${thing} by name or text`],
    download: [`Download the file content of one ${thing}`, `Download one ${thing}`],
    upload: [`Upload a ${thing} to ${app} with its details`, `Upload a ${thing}`],
    cancel: [`Cancel one ${thing} in ${app} by its id`, `Cancel one ${thing}`],
    submit: [`Submit an entry to one ${thing} in ${app}`, `Submit a ${thing} entry`],
    preview: [`Preview one ${thing} in ${app} before saving`, `Preview a ${thing} before it is saved`],
  }[verb] ?? [`${capital(human(op.name))} in ${app}`, `${capital(human(op.name))} (${app})`, capital(human(op.name))];
  return fitText(c, SUMMARY, [` (${app})`, ' via the gateway', ' on request']);
}

function descriptionOf(op, shape, app) {
  const { verb, thing, key, tokens, sources } = shape;
  const query = op.params.filter((p) => p.in === 'query');
  const body = op.params.filter((p) => p.in === 'body');
  const paging = query.filter((p) => ['limit', 'page', 'page_token', 'offset', 'fetchAll'].includes(p.name)).map((p) => p.name);
  const filters = query.filter(
    (p) => !paging.includes(p.name) && !['fields', 'order', 'sort_by', 'sort_order', 'asc', 'desc'].includes(p.name),
  );
  const sorting = query.filter((p) => ['order', 'sort_by', 'sort_order', 'asc', 'desc'].includes(p.name)).map((p) => p.name);
  const requiredBody = body.filter((p) => p.required).map((p) => p.name);
  const optionalBody = body.filter((p) => !p.required).map((p) => p.name);

  const what =
    {
      list: `Returns ${thing} from ${app} as one page of records, in the order ${app} keeps them unless a sort is given.`,
      get:
        tokens.length > 0
          ? `Returns one ${thing} from ${app}, looked up by its id, with the fields ${app} sends by default.`
          : `Returns the ${thing} of the ${app} account the connection belongs to; it takes no id.`,
      change: `Lists the records of the given entity types that were created, changed or deleted in ${app} since a moment in time.`,
      create: `Creates a new ${thing} in ${app} from the fields in the request.`,
      update: `Changes the given fields of one existing ${thing} in ${app}; fields that are left out keep their values.`,
      delete: `Removes one ${thing} from ${app}; a removed record cannot be read again.`,
      find: key
        ? `Looks up ${thing} records in ${app} whose ${key} matches the value in the path.`
        : `Searches the ${thing} of the connected ${app} company with a filter written in the QuickBooks query language.`,
      report: `Runs the ${title(thing)} report of the connected ${app} company for a date range.`,
      search: `Searches ${thing} in ${app} for a name or piece of text.`,
      download: `Fetches the stored content of one ${thing} from ${app}.`,
      upload: `Uploads a new ${thing} to ${app} together with the record it belongs to.`,
      cancel: `Cancels one ${thing} in ${app}; the record stays but is marked as cancelled.`,
      submit: `Sends a new entry to one ${thing} in ${app}, as if a person had filled it in.`,
      preview: `Works out one ${thing} in ${app} without saving it, so the result can be checked first.`,
    }[verb] ?? `Performs "${human(op.name)}" in ${app}.`;

  const ids = tokens.map((t) => (sources[t] ? `take ${t} from ${sources[t]}` : undefined)).filter(Boolean);
  const idSentence = ids.length > 0 ? `${capital(listOf(ids))} or an earlier answer.` : undefined;
  const filterSentence =
    verb === 'report' && filters.length > 0
      ? `Options: ${listOf(filters.map((p) => p.name))}; all of them may be left out.`
      : filters.length > 0
        ? `Narrow the result with ${listOf(filters.slice(0, 4).map((p) => p.name))}${more(filters.length - 4, ' and ', ' more filters')}.`
        : undefined;
  const sortSentence = sorting.length > 0 ? `Sort with ${listOf(sorting, 'or')}.` : undefined;
  let pagingSentence;
  if (paging.includes('page_token')) pagingSentence = 'For the next page, pass page_token from the paging data of the previous answer.';
  else if (paging.includes('offset'))
    pagingSentence = 'Step through long results with offset and limit, or set fetchAll to read every page.';
  else if (paging.includes('page')) pagingSentence = 'Raise page to read further pages of a long listing.';
  let bodySentence;
  if (requiredBody.length > 0) {
    bodySentence = `${capital(listOf(requiredBody.slice(0, 4)))} ${requiredBody.length === 1 ? 'is' : 'are'} required${
      optionalBody.length > 0 ? `; ${optionalBody.length} more fields are optional, such as ${listOf(optionalBody.slice(0, 3))}` : ''
    }.`;
  } else if (optionalBody.length > 0) {
    const among = more(optionalBody.length > 4 ? optionalBody.length : 0, ', among ');
    bodySentence = `Fields it accepts include ${listOf(optionalBody.slice(0, 4))}${among}.`;
  }
  const returns = {
    list: 'The answer is the upstream JSON unchanged: the records and the paging data.',
    get: 'The answer is the record as the upstream JSON returns it.',
    create: 'The answer holds the created record with its new id.',
    update: 'The answer holds the record as it is after the change.',
    delete: 'The answer is empty or a short confirmation.',
    find: 'The answer is the upstream JSON unchanged.',
    report: 'The answer is the report as QuickBooks returns it: header, columns and rows.',
  }[verb];
  const fillers = [
    `It calls ${op.upstream.method} ${op.upstream.path} on the ${app} API.`,
    `Upstream errors come back in the gateway's error format with the status ${app} gave.`,
    'The gateway adds no caching: each call reaches the upstream once.',
    `This declaration is a generated stand-in for benchmarks; name, path and parameters follow ${app}.`,
  ];
  return paragraph([what, idSentence, filterSentence, bodySentence, pagingSentence, sortSentence, returns], fillers, DESCRIPTION);
}

function paramDescription(p, op, shape, app) {
  const name = human(p.name);
  const { thing, sources } = shape;
  const where = { path: 'Sent in the path.', query: 'Sent in the query string.', body: 'Sent in the JSON body.' }[p.in];
  const pads = [` ${where}`, p.required ? ' Required.' : ' Optional.', ` Leave it out for the ${app} default.`, ` Type: ${p.type}.`];
  let c;
  if (p.in === 'path') {
    if (/(^|_)(id|uuid)$/.test(p.name)) {
      const of = p.name === 'id' ? thing : name.replace(/ (id|uuid)$/, '');
      const from = sources[p.name] ? `${sources[p.name]} lists the ids` : 'earlier answers carry it';
      c = [`Id of the ${of} to use; ${from}.`, `Id of the ${of} this call is about.`];
    } else {
      c = [`${capital(name)} to look for, written as it is stored in ${app}; it must match exactly.`, `${capital(name)} to look for.`];
    }
  } else if (p.name === 'limit') {
    const range = p.maximum ? `${p.minimum ?? 1} to ${p.maximum}` : 'a positive number';
    c = [`Most records to return in one page, ${range}; ${app} uses its own default when left out.`];
  } else if (p.name === 'page') {
    c = ['Page number to read, starting at 1; raise it to walk through a long listing.'];
  } else if (p.name === 'page_token') {
    c = ['Cursor from the paging data of the previous answer; leave it out to start at the first page.'];
  } else if (p.name === 'offset') {
    c = ['How many records to skip before the first one returned; 0 starts with the first record.'];
  } else if (p.name === 'fetchAll') {
    c = ['Set to true to read every page in turn instead of a single page; slower on large companies.'];
  } else if (p.name === 'where') {
    c = ["Filter in QuickBooks query syntax, for example Active = true AND Balance > '0'."];
  } else if (p.name === 'asc' || p.name === 'desc') {
    c = [`Field to sort by in ${p.name === 'asc' ? 'ascending' : 'descending'} order, such as TxnDate or MetaData.LastUpdatedTime.`];
  } else if (p.name === 'sort_by') {
    c = ['Field to sort the records by, such as id, created_at or updated_at; pair it with sort_order.'];
  } else if (p.name === 'filter_by') {
    c = ['Name of the field to filter on; give the value in filter_on and the operator in filter_with.'];
  } else if (p.name === 'filter_on') {
    c = ['Value that the filter_by field is compared with, using the operator in filter_with.'];
  } else if (p.name === 'filter_with' && p.enum) {
    c = [`Operator comparing filter_by with filter_on: one of ${p.enum.length} such as ${listOf(p.enum.slice(0, 4), 'or')}.`];
  } else if (p.name === 'order' && p.enum) {
    c = [
      `Sort order written as field(direction): one of ${p.enum.length} values such as ${listOf(p.enum.slice(0, 2), 'or')}.`,
      `Sort order written as field(direction): one of ${p.enum.length} values.`,
    ];
  } else if (p.name === 'ids' && p.type === 'array') {
    c = ['Only the records with these ids: an array of numeric ids, or ids[]= repeated in a query string.'];
  } else if (p.name === 'summarize_column_by') {
    c = ["How the report's columns are grouped, such as Total, Month, Quarter, Year or Customers."];
  } else if (op.name.startsWith('report_') && (p.name === 'customer' || p.name === 'vendor')) {
    c = [`Limit the report to one ${p.name} by its QuickBooks id; several ids are separated by commas.`];
  } else if (p.name === 'entities') {
    c = ['Entity types to check for changes, such as Invoice, Customer or Payment, as an array of names.'];
  } else if (p.name === 'fields') {
    c = ['Comma-separated record fields to include in the answer, such as id and name; others are left out.'];
  } else if (p.name === 'query') {
    c = [
      `Text to search for; only ${thing} whose main text contains it are returned.`,
      'Text to search for in the main text of each record.',
    ];
  } else if (p.name === 'created_since' || p.name === 'updated_since') {
    const what = p.name.startsWith('created') ? 'created' : 'last updated';
    c = [`Only records ${what} after this moment, as an ISO 8601 timestamp with a time zone.`];
  } else if (p.enum) {
    const shown = p.enum.length <= 6 ? listOf(p.enum, 'or') : `${p.enum.length} values such as ${listOf(p.enum.slice(0, 3), 'or')}`;
    c = [
      `${capital(name)}: one of ${shown}.`,
      `${capital(name)}: one of ${p.enum.length} values such as ${listOf(p.enum.slice(0, 2), 'or')}.`,
      `${capital(name)}: one of ${p.enum.length} allowed values.`,
    ];
  } else if (p.type === 'string' && (p.format === 'date' || p.format === 'date-time')) {
    const form = p.format === 'date' ? 'an ISO 8601 date (YYYY-MM-DD)' : 'an ISO 8601 timestamp, e.g. 2024-05-01T09:00:00Z';
    c = [`${capital(name)}, given as ${form}.`];
  } else if (p.type === 'integer' && /(^|_)id$/.test(p.name)) {
    const of = name.replace(/ id$/, '');
    c =
      p.in === 'query'
        ? [`Only ${thing} linked to this ${of}, given as its numeric id in ${app}.`, `Numeric id of the ${of} to filter on.`]
        : [`Numeric id of the ${of} this ${thing} belongs to in ${app}.`, `Numeric id of the ${of}.`];
  } else if (p.type === 'integer' || p.type === 'number') {
    const bounds = p.minimum !== undefined || p.maximum !== undefined ? ` (${p.minimum ?? '…'} to ${p.maximum ?? '…'})` : '';
    c = [`${capital(name)} as a ${p.type === 'integer' ? 'whole number' : 'number'}${bounds}.`];
  } else if (p.type === 'boolean') {
    c =
      p.in === 'query'
        ? [`Set to true to keep only ${thing} where ${name} holds, false for the others.`, `True or false: filter on ${name}.`]
        : [`Whether ${name} applies to this ${thing}; true or false.`, `True or false: ${name}.`];
  } else if (p.type === 'array') {
    const item = p.items?.type === 'object' ? 'objects' : `${p.items?.type ?? 'string'} values`;
    c = [`${capital(name)} as an array of ${item}, in the order they should be kept.`, `${capital(name)}: an array of ${item}.`];
  } else if (p.type === 'object') {
    c = [`The related ${name} as an object, usually { "id": 123 } naming an existing record.`, `${capital(name)} as an object.`];
  } else if (p.in === 'query') {
    c = [`Only ${thing} whose ${name} equals this value.`, `Filter on ${name}.`];
  } else {
    c = [`${capital(name)} of the ${thing}, as plain text.`, `${capital(name)} as text.`];
  }
  return fitText(
    c.map((text) => text),
    PARAM,
    pads,
  );
}

// ---- examples --------------------------------------------------------------------------------------------------------

function hash(text) {
  let h = 7;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 100000;
  return h;
}

function sampleString(name, format) {
  if (format === 'date') return '2024-05-01';
  if (format === 'date-time') return '2024-05-01T09:00:00Z';
  if (format === 'email' || /email/.test(name)) return 'ada@example.com';
  if (format === 'uri' || /url$/.test(name)) return 'https://example.com/page';
  if (format === 'uuid' || /uuid$/.test(name)) return '3f0c6a4e-8d1b-4c2a-9e57-1b2d3c4e5f60';
  if (/phone/.test(name)) return '+15555550123';
  if (/(^|_)id$/.test(name)) return String(1000 + (hash(name) % 9000));
  if (/name$/.test(name)) return 'Ada Lovelace';
  if (name === 'fields') return 'id,name';
  if (name === 'where') return 'Active = true';
  if (/currency/.test(name)) return 'USD';
  if (/date$/.test(name)) return '2024-05-01';
  return 'sample';
}

function sample(p) {
  if (p.enum) return p.enum[0];
  switch (p.type) {
    case 'integer': {
      const value = p.minimum !== undefined && p.minimum > 25 ? p.minimum : 25;
      return p.maximum !== undefined && value > p.maximum ? p.maximum : value;
    }
    case 'number':
      return 125.5;
    case 'boolean':
      return true;
    case 'array':
      return [sample({ name: p.name, ...(p.items ?? { type: 'string' }) })];
    case 'object':
      return { id: 1000 + (hash(p.name) % 9000) };
    default:
      return sampleString(p.name, p.format);
  }
}

/** Required params, plus the page size of a listing and the first two optional fields of a write. */
function exampleOf(op) {
  const out = {};
  for (const p of op.params) if (p.required) out[p.name] = sample(p);
  const limit = op.params.find((p) => p.name === 'limit');
  if (limit && op.method === 'GET') out.limit = sample(limit);
  if (op.method !== 'GET' && op.method !== 'DELETE') {
    for (const p of op.params.filter((q) => q.in === 'body' && !q.required).slice(0, 2)) out[p.name] = sample(p);
  }
  return out;
}

// ---- source -----------------------------------------------------------------------------------------------------------

const str = (text) => `'${String(text).replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
const key = (name) => (IDENTIFIER.test(name) ? name : str(name));

function literal(value) {
  if (typeof value === 'string') return str(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${key(k)}: ${literal(v)}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

function itemSchema(items) {
  if (!items) return 'Type.String()';
  if (items.enum && items.type === 'string') return `StringEnum(${literal(items.enum)})`;
  return (
    { integer: 'Type.Integer()', number: 'Type.Number()', boolean: 'Type.Boolean()', object: 'FreeObject()' }[items.type] ?? 'Type.String()'
  );
}

const SCALARS = { string: 'String', integer: 'Integer', number: 'Number', boolean: 'Boolean' };

function schemaSource(p, description) {
  const options = { description };
  if (p.in === 'path') options.minLength = 1;
  if (p.format) options.format = p.format;
  if (p.minimum !== undefined) options.minimum = p.minimum;
  if (p.maximum !== undefined) options.maximum = p.maximum;
  let source;
  if (p.enum && p.type === 'string') source = `StringEnum(${literal(p.enum)}, ${literal({ description })})`;
  else if (p.enum) source = `Type.Union([${p.enum.map((v) => `Type.Literal(${literal(v)})`).join(', ')}], ${literal({ description })})`;
  else if (p.type === 'array') source = `Type.Array(${itemSchema(p.items)}, ${literal({ description })})`;
  else if (p.type === 'object') source = `FreeObject(${literal({ description })})`;
  else source = `Type.${SCALARS[p.type] ?? 'String'}(${literal(options)})`;
  return p.required ? source : `Type.Optional(${source})`;
}

/** Names joined with commas into lines of at most `width` characters. */
function wrap(names, indent, width) {
  const lines = [];
  let line = indent;
  for (const name of names) {
    if (line.length + name.length + 2 > width && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${name}, `;
  }
  if (line.trim() !== '') lines.push(line.trimEnd());
  return lines;
}

const camel = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

function operationSource(op, service, app, byPath) {
  const shape = describeShape(op, service, byPath);
  const lines = [];
  lines.push(`export const ${camel(op.name)} = defineOperation({`);
  lines.push(`  name: ${str(op.name)},`);
  lines.push(`  method: ${str(op.method)},`);
  lines.push(`  path: ${str(op.path)},`);
  lines.push(`  summary: ${str(summaryOf(op, shape, app))},`);
  lines.push(`  description:\n    ${str(descriptionOf(op, shape, app))},`);
  if (op.params.length === 0) lines.push('  params: Params({}),');
  else {
    lines.push('  params: Params({');
    for (const p of op.params) lines.push(`    ${key(p.name)}: ${schemaSource(p, paramDescription(p, op, shape, app))},`);
    lines.push('  }),');
  }
  const names = new Set(op.params.map((p) => p.name));
  const extra = [...op.upstream.path.matchAll(TOKEN)].map((m) => m[1]).filter((t) => !names.has(t));
  if (extra.length > 0) {
    // a token the connection supplies (QuickBooks realmId), not the caller
    lines.push(
      `  upstream: (_params, ctx) => ({ method: ${str(op.upstream.method)}, path: fillPath(${str(op.upstream.path)}, ctx.connection) }),`,
    );
  } else {
    lines.push(`  upstream: { method: ${str(op.upstream.method)}, path: ${str(op.upstream.path)} },`);
  }
  lines.push(`  example: ${literal(exampleOf(op))},`);
  lines.push('});');
  return { source: lines.join('\n'), needsFillPath: extra.length > 0 };
}

function pluginDescription(service, provider) {
  const counts = new Map();
  for (const op of service.operations) {
    const collection = op.path.split('/').filter((s) => s && !s.startsWith(':'))[0] ?? op.name;
    counts.set(collection, (counts.get(collection) ?? 0) + 1);
  }
  const top = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([c]) => human(c.replaceAll('-', '_')));
  return (
    `${service.displayName} (${provider.kind}), benchmark stand-in: ${service.operations.length} operations over ${listOf(top)} ` +
    `and more, with the real names, paths and parameters and generated wording. Never shipped; it calls nothing.`
  );
}

function moduleSource(service, coreUrl) {
  const provider = PROVIDERS[service.service];
  if (!provider) throw new Error(`no provider facts for ${service.service}`);
  const app = service.displayName;
  const byPath = new Map(service.operations.map((op) => [`${op.method} ${op.path}`, op.name]));
  const ops = service.operations.map((op) => operationSource(op, service, app, byPath));
  const needsFillPath = ops.some((o) => o.needsFillPath);
  const usesEnum = service.operations.some((op) => op.params.some((p) => p.enum || p.items?.enum));
  const imports = ['defineOperation', 'definePlugin', ...(needsFillPath ? ['fillPath'] : []), 'FreeObject', 'Params'];
  if (usesEnum) imports.push('StringEnum');
  imports.push('Type');
  const { realmFact, ...oauth2 } = provider.oauth2;
  const oauthLines = Object.entries(oauth2).map(([k, v]) => `      ${k}: ${literal(v)},`);
  if (realmFact) oauthLines.push('      connectionFacts: (callback) => ({ realmId: callback.realmId ?? null }),');
  return [
    `// Generated by bench/standins/generate.mjs from catalog.json: ${app} stand-in for the benchmark. Not shipped; do not edit.`,
    `import { ${imports.join(', ')} } from ${str(coreUrl)};`,
    '',
    ...ops.map((o) => `${o.source}\n`),
    'export default definePlugin({',
    `  service: ${str(service.service)},`,
    `  displayName: ${str(`${app} (stand-in)`)},`,
    `  version: '0.0.0-standin',`,
    `  description:\n    ${str(pluginDescription(service, provider))},`,
    '  contract: 1,',
    `  upstream: { baseUrl: ${str(provider.baseUrl)} },`,
    '  auth: {',
    `    token: { description: ${str(provider.token)} },`,
    '    oauth2: {',
    ...oauthLines,
    '    },',
    '  },',
    '  operations: [',
    ...wrap(
      service.operations.map((op) => camel(op.name)),
      '    ',
      140,
    ),
    '  ],',
    '});',
    '',
  ].join('\n');
}

/** Writes standin-<service>.mjs for each service of catalog.json into outDir; returns [{ service, file, operations }]. */
export async function generateStandins(outDir, coreUrl) {
  const catalog = JSON.parse(await readFile(CATALOG, 'utf8'));
  await mkdir(outDir, { recursive: true });
  const written = [];
  for (const service of catalog.services) {
    const file = join(outDir, `standin-${service.service}.mjs`);
    await writeFile(file, moduleSource(service, coreUrl));
    written.push({ service: service.service, file, operations: service.operations.length });
  }
  return written;
}

// ---- self-check ---------------------------------------------------------------------------------------------------------

async function check() {
  const coreFile = join(ROOT, 'packages/core/dist/index.js');
  const coreUrl = pathToFileURL(coreFile).href;
  const core = await import(coreUrl);
  const { Registry, buildOpenApiDocument, describeOperation, exampleParams, isPlugin } = core;
  const failures = [];
  const dir = await mkdtemp(join(os.tmpdir(), 'portico-standins-'));
  try {
    const written = await generateStandins(dir, coreUrl);
    const registry = new Registry();
    // the real plugins first, as the gateway would load them
    const real = [];
    for (const entry of (await readdir(join(ROOT, 'packages'))).filter((name) => name.startsWith('plugin-')).sort()) {
      const plugin = (await import(pathToFileURL(join(ROOT, 'packages', entry, 'dist/index.js')).href)).default;
      registry.register(plugin);
      real.push(`${plugin.service} (${plugin.operations.length})`);
    }
    const rows = [];
    const lengths = { summary: [], description: [], param: [] };
    for (const { service, file, operations } of written) {
      const bytes = (await stat(file)).size;
      let t = performance.now();
      const plugin = (await import(pathToFileURL(file).href)).default;
      const importMs = performance.now() - t;
      if (!isPlugin(plugin)) {
        failures.push(`${service}: not a plugin`);
        continue;
      }
      let integration;
      t = performance.now();
      try {
        integration = registry.register(plugin);
      } catch (error) {
        failures.push(`${service}: registration failed: ${error.message}`);
        continue;
      }
      const registerMs = performance.now() - t;
      t = performance.now();
      const document = buildOpenApiDocument(integration, { baseUrl: 'http://127.0.0.1:8787' });
      const openApiMs = performance.now() - t;
      const paths = Object.values(document.paths ?? {}).reduce((n, item) => n + Object.keys(item).length, 0);
      if (paths !== operations) failures.push(`${service}: OpenAPI document has ${paths} operations, expected ${operations}`);
      let examples = 0;
      for (const operation of integration.operations.values()) {
        const definition = operation.definition;
        if (!definition.example) failures.push(`${service}.${operation.name}: no example`);
        const params = exampleParams(operation);
        if (operation.validator.check(params)) examples++;
        else failures.push(`${service}.${operation.name}: example invalid: ${operation.validator.problems(params).join('; ')}`);
        describeOperation(integration, operation);
        lengths.summary.push(definition.summary.length);
        lengths.description.push(definition.description.length);
        for (const property of Object.values(definition.params.properties ?? {})) lengths.param.push(property.description?.length ?? 0);
      }
      if (integration.operations.size !== operations)
        failures.push(`${service}: registered ${integration.operations.size} of ${operations}`);
      rows.push({
        service,
        operations: integration.operations.size,
        'module bytes': bytes,
        'import ms': importMs.toFixed(1),
        'registration ms': registerMs.toFixed(2),
        'openapi ms': openApiMs.toFixed(1),
        'openapi bytes': Buffer.byteLength(JSON.stringify(document)),
        'examples valid': `${examples}/${operations}`,
      });
    }
    console.log(`registered with the real plugins: ${real.join(', ')}`);
    console.table(rows);
    const range = (values, [min, max]) => {
      const inside = values.filter((v) => v >= min && v <= max).length;
      return `${Math.min(...values)}–${Math.max(...values)} chars, ${inside}/${values.length} within ${min}–${max}`;
    };
    console.log(`summaries: ${range(lengths.summary, SUMMARY)}`);
    console.log(`descriptions: ${range(lengths.description, DESCRIPTION)}`);
    console.log(`param descriptions: ${range(lengths.param, PARAM)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    for (const failure of failures.slice(0, 50)) console.error(`FAIL ${failure}`);
    console.error(`${failures.length} failure(s)`);
    process.exitCode = 1;
  } else {
    console.log('stand-in check passed');
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv.includes('--check')) {
  await check();
}
