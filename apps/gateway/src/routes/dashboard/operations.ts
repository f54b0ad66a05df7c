import { describeOperation, type OperationDescription, type RegisteredIntegration, type SearchHit } from '@portico/core';
import { type Html, html } from './html.js';
import { csrfField } from './layout.js';
import type { DashboardSession } from './session.js';

type JsonSchema = Record<string, unknown>;

export function operationsPage(
  query: string,
  service: string,
  services: Array<{ service: string; name: string }>,
  hits: SearchHit[],
  listed: boolean,
): Html {
  return html`<h1>Operations</h1>
<p class="lead">Search the operations the gateway serves, ranked as the MCP tool <code>search_methods</code> ranks them.</p>
<form method="get" action="/dashboard/operations" role="search" class="panel">
  <div class="row">
    <div><label for="q">What do you want to do?</label>
    <input id="q" name="q" type="search" value="${query}" maxlength="500" placeholder="e.g. list users, send a message"></div>
    <div><label for="service">Integration</label>
    <select id="service" name="service">
      <option value="">All</option>
      ${services.map((s) => html`<option value="${s.service}"${s.service === service ? html` selected` : ''}>${s.name}</option>`)}
    </select></div>
    <div><button type="submit">Search</button></div>
  </div>
</form>
${
  hits.length === 0
    ? html`<p>${query ? 'No operation matches; try other words.' : 'Type what you want to do, or pick an integration to list its operations.'}</p>`
    : html`<p role="status">${listed ? `${hits.length} operations` : `${hits.length} best matches`}</p>
<ol class="results">
${hits.map(
  (hit) => html`<li><a class="op" href="/dashboard/operations/${hit.service}/${hit.method}">${hit.service} · ${hit.method}</a>
  <span class="badge ${hit.access === 'read' ? 'ok' : hit.access === 'delete' ? 'bad' : 'warn'}">${hit.access}</span>
  <div>${hit.summary}</div></li>`,
)}
</ol>`
}`;
}

export interface TryResult {
  ok: boolean;
  status: number;
  body: unknown;
}

export function operationPage(
  session: DashboardSession,
  integration: RegisteredIntegration,
  description: OperationDescription,
  values: Record<string, string>,
  result: TryResult | undefined,
): Html {
  const schema = description.params as JsonSchema;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys(properties);
  return html`<p><a href="/dashboard/operations?service=${description.service}">← Operations of ${integration.plugin.displayName}</a></p>
<h1><code>${description.service}</code> · ${description.method}</h1>
<p class="lead">${description.summary}</p>
<section class="panel" aria-labelledby="about">
  <h2 id="about">About</h2>
  <p>${description.description}</p>
  <dl class="facts">
    <dt>Access</dt><dd>${description.access}</dd>
    <dt>REST</dt><dd><code>${description.http.method} ${description.http.path}</code></dd>
    <dt>MCP</dt><dd><code>${description.example.tool}</code> with <code>method: "${description.method}"</code></dd>
  </dl>
  <h3>Parameters</h3>
  ${
    names.length === 0
      ? html`<p>None.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead>
    <tbody>${names.map((name) => {
      const p = properties[name] as JsonSchema;
      return html`<tr><td data-label="Name"><code>${name}</code></td><td data-label="Type">${typeName(p)}</td><td data-label="Required">${required.has(name) ? 'yes' : 'no'}</td><td data-label="Description">${String(p.description ?? '')}</td></tr>`;
    })}</tbody></table></div>`
  }
  <h3>Example</h3>
  <pre tabindex="0" aria-label="Example parameters">${JSON.stringify(description.example.arguments.params, null, 2)}</pre>
</section>
<section class="panel" aria-labelledby="try">
  <h2 id="try">Try it</h2>
  <p>Runs the call through the same pipeline as REST and MCP, as the signed-in key; it is audited with protocol <code>dashboard</code>.${
    description.access === 'read'
      ? ''
      : html` <strong>This operation ${description.access === 'delete' ? 'deletes' : 'changes'} data upstream.</strong>`
  }</p>
  <form method="post" action="/dashboard/operations/${description.service}/${description.method}#answer" id="try-form"${
    description.access === 'read'
      ? ''
      : html` data-confirm="Run ${description.method}? It ${description.access === 'delete' ? 'deletes' : 'changes'} data in ${integration.plugin.displayName}."`
  }>
    ${csrfField(session)}
    ${names.map((name) => field(name, properties[name] as JsonSchema, required.has(name), values[name] ?? ''))}
    <div class="actions"><button type="submit">Run ${description.method}</button></div>
  </form>
  ${
    result
      ? html`<div class="answer${result.ok ? '' : ' failed'}" id="answer" role="status">
    <h3 id="answer-title">Answer: ${result.status}${result.ok ? ' OK' : ''}</h3>
    <pre tabindex="0" aria-label="JSON answer" data-answer>${answerText(result.body)}</pre>
  </div>`
      : ''
  }
</section>`;
}

const ANSWER_MAX = 200_000;

function answerText(body: unknown): string {
  const text = body === undefined ? '(no body)' : JSON.stringify(body, null, 2);
  return text.length > ANSWER_MAX ? `${text.slice(0, ANSWER_MAX)}\n… (cut at ${ANSWER_MAX} characters)` : text;
}

function typeName(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return `one of ${(schema.enum as unknown[]).map(String).join(', ')}`;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(typeName).join(' or ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === 'array') return `array of ${typeName((schema.items ?? {}) as JsonSchema)}`;
  return typeof schema.type === 'string' ? schema.type : 'JSON';
}

/** How a parameter is entered: a text, number, choice or JSON field. */
export function fieldKind(schema: JsonSchema): 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'json' {
  if (Array.isArray(schema.enum) && (schema.enum as unknown[]).every((v) => typeof v === 'string')) return 'enum';
  if (schema.type === 'string') return 'string';
  if (schema.type === 'integer') return 'integer';
  if (schema.type === 'number') return 'number';
  if (schema.type === 'boolean') return 'boolean';
  return 'json';
}

function field(name: string, schema: JsonSchema, required: boolean, value: string): Html {
  const id = `p-${name}`;
  const hintId = `${id}-hint`;
  const kind = fieldKind(schema);
  const hint = [schema.description ? String(schema.description) : '', kind === 'json' ? `JSON (${typeName(schema)})` : '']
    .filter(Boolean)
    .join(' · ');
  const describedBy = hint ? html` aria-describedby="${hintId}"` : '';
  const req = required ? html` required` : '';
  const label = html`<label for="${id}">${name}${required ? html` <span aria-hidden="true">*</span><span class="sr-only"> (required)</span>` : ''}</label>${
    hint ? html`<span class="hint" id="${hintId}">${hint}</span>` : ''
  }`;
  switch (kind) {
    case 'enum':
      return html`${label}<select id="${id}" name="${name}"${describedBy}${req}>
        ${required ? '' : html`<option value="">(not set)</option>`}
        ${(schema.enum as string[]).map((v) => html`<option${v === value ? html` selected` : ''}>${v}</option>`)}</select>`;
    case 'boolean':
      return html`${label}<select id="${id}" name="${name}"${describedBy}${req}>
        ${required ? '' : html`<option value="">(not set)</option>`}
        <option${value === 'true' ? html` selected` : ''}>true</option><option${value === 'false' ? html` selected` : ''}>false</option></select>`;
    case 'integer':
    case 'number':
      return html`${label}<input id="${id}" name="${name}" type="number"${kind === 'number' ? html` step="any"` : ''} value="${value}"${describedBy}${req}>`;
    case 'string':
      return html`${label}<input id="${id}" name="${name}" type="text" value="${value}"${describedBy}${req}>`;
    default:
      return html`${label}<textarea id="${id}" name="${name}" rows="3" spellcheck="false"${describedBy}${req}>${value}</textarea>`;
  }
}

/** The form's initial values: the operation's example, each as its field shows it. */
export function exampleValues(description: OperationDescription): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(description.example.arguments.params)) {
    if (typeof value === 'string' && value.startsWith('<') && value.endsWith('>')) continue; // a placeholder, not a value
    out[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

/**
 * Reads the try-it form into params by the schema: empty fields are left out, numbers and booleans are converted,
 * JSON fields parsed. Whatever does not fit is for the pipeline's validation to refuse, with its usual message.
 */
export function formParams(schema: JsonSchema, form: Record<string, string>): { params: Record<string, unknown>; problem?: string } {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const params: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const text = form[name];
    if (text === undefined || text.trim() === '') continue;
    const kind = fieldKind(property);
    if (kind === 'integer' || kind === 'number') params[name] = Number(text);
    else if (kind === 'boolean') params[name] = text === 'true';
    else if (kind === 'json') {
      try {
        params[name] = JSON.parse(text);
      } catch {
        return { params, problem: `${name} must be JSON (${typeName(property)})` };
      }
    } else params[name] = text;
  }
  return { params };
}

export { describeOperation };
