import { type EmulatorRequest, InvalidJsonError, isJsonObject } from '@portico/core/testing/emulator';
import {
  ApiError,
  type Body,
  type CollectionDef,
  type Db,
  humanize,
  isRef,
  now,
  type Ref,
  type RelSpec,
  type RelValue,
  recordNotFound,
  ref,
  refType,
  type StoredRecord,
} from './model.js';
import type { Selection } from './query.js';

/** The JSON:API resource object Lawmatics answers with. */
export interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: RelValue }>;
}

/** The id of "the firm" for polymorphic owners of type Firm (which need no id). */
export const FIRM_ID = '7';

/** Values a new record starts with, where Lawmatics has defaults. */
const INITIAL: Record<string, Record<string, unknown>> = {
  prospects: { status: 'pnc', estimated_value_cents: 0, actual_value_cents: 0, lead_cost_cents: 0, custom_fields: [] },
  contacts: { contact_type: 'PNC', custom_fields: [] },
  companies: { addresses: [], custom_fields: [] },
  tasks: { done: false, priority: 'low', status: 'No Status', tags: [] },
  subtasks: { done: false },
  events: { all_day: false, send_invites: true, reminder_sent: false },
  sub_statuses: { status: 'pnc' },
  custom_fields: { visibility: 'default' },
  practice_areas: { statute_of_limitations_enabled: false, matter_count: 0 },
  relationship_types: { is_repeatable: false },
  relationships: { 'has_portal_access?': false },
  transactions: { amount_currency: 'USD', external_id: null },
  users: { role: 'staff', sign_in_count: 0 },
};

// ---- rendering ------------------------------------------------------------------------------------------------------

function relData(spec: RelSpec, value: RelValue | undefined): RelValue {
  if (spec.kind === 'one') return isRef(value) ? value : null;
  if (spec.kind === 'many') return Array.isArray(value) ? value : [];
  return typeof value === 'string' ? value : null;
}

/** A record with the selected attributes and relationships (in the order asked for; `all`: everything). */
export function render(def: CollectionDef, record: StoredRecord, db: Db, selected: Selection): Resource {
  const names =
    selected === 'all' ? [...def.attributes, ...Object.keys(def.relationships ?? {}), ...Object.keys(def.reverse ?? {})] : selected;
  const attributes: Record<string, unknown> = {};
  const relationships: Record<string, { data: RelValue }> = {};
  for (const name of names) {
    const spec = def.relationships?.[name];
    const reverse = def.reverse?.[name];
    if (def.attributes.includes(name)) attributes[name] = record.attributes[name] ?? null;
    if (spec) relationships[name] = { data: relData(spec, record.relationships[name]) };
    else if (reverse) relationships[name] = { data: reverse(record, db) };
  }
  const resource: Resource = { id: record.id, type: def.type, attributes };
  if (!def.bare || Object.keys(relationships).length > 0) resource.relationships = relationships;
  return resource;
}

// ---- request bodies -------------------------------------------------------------------------------------------------

/** A write's body: JSON (also sent as text/plain), a urlencoded form or multipart form data (`path[]` lists, files). */
export function readBody(request: EmulatorRequest): Body {
  if (request.body.length === 0) return {};
  const type = request.mediaType();
  if (type === 'application/x-www-form-urlencoded') return formFields(new URLSearchParams(request.text()));
  if (type === 'multipart/form-data') return multipart(request);
  let value: unknown;
  try {
    value = request.json();
  } catch (error) {
    if (error instanceof InvalidJsonError) throw new ApiError(400, 'Bad Request', 'The request body is not valid JSON.');
    throw error;
  }
  if (value === undefined) return {};
  if (!isJsonObject(value)) throw new ApiError(400, 'Bad Request', 'The request body must be a JSON object.');
  return value;
}

function formValue(text: string): unknown {
  return text === 'true' ? true : text === 'false' ? false : text;
}

function formFields(params: Iterable<[string, unknown]>): Body {
  const body: Body = {};
  for (const [key, value] of params) {
    const parsed = typeof value === 'string' ? formValue(value) : value;
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      body[name] = [...(Array.isArray(body[name]) ? (body[name] as unknown[]) : []), parsed];
    } else body[key] = parsed;
  }
  return body;
}

/** A small multipart/form-data reader: text fields, and files as `{ filename, size, content_type }`. */
function multipart(request: EmulatorRequest): Body {
  const header = String(request.headers['content-type'] ?? '');
  const boundary = /boundary="?([^";]+)"?/i.exec(header)?.[1];
  if (!boundary) throw new ApiError(400, 'Bad Request', 'The multipart body has no boundary.');
  const raw = request.body.toString('latin1');
  const fields: Array<[string, unknown]> = [];
  for (const part of raw.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const content = part.slice(split + 4).replace(/\r\n$/, '');
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
    const bytes = Buffer.from(content, 'latin1');
    fields.push([name, filename === undefined ? bytes.toString('utf8') : { filename, size: bytes.length, content_type: contentType }]);
  }
  return formFields(fields);
}

// ---- writes ---------------------------------------------------------------------------------------------------------

const blank = (value: unknown) => value === undefined || value === null || value === '';

function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, '');
}

/** Custom field values as Lawmatics renders them from `[{ id, value }]`. */
function customFieldValues(values: unknown[], db: Db): unknown[] {
  return values.filter(isJsonObject).map((entry) => {
    const field = db.records.custom_fields?.find((f) => f.id === String(entry.id));
    const value = entry.value ?? null;
    return {
      id: Number(entry.id),
      name: field?.attributes.name ?? null,
      field_type: field?.attributes.field_type ?? 'string',
      value,
      formatted_value: value === true ? 'Yes' : value === false ? 'No' : value === null ? null : String(value),
    };
  });
}

/** An uploaded `file` part (multipart) becomes the file's name, size and type. */
function takeUpload(body: Body): void {
  const file = body.file;
  if (!isJsonObject(file) || typeof file.filename !== 'string') return;
  body.file_name = file.filename;
  body.file_size = file.size;
  body.file_type = file.content_type;
  if (blank(body.name)) body.name = file.filename;
}

/** Copies a body into a record: known attributes, mirrored ones, and relationships from `*_id`, `*_type`, `*_ids`. */
function assign(def: CollectionDef, record: StoredRecord, body: Body, db: Db): string[] {
  takeUpload(body);
  const written: string[] = [];
  for (const name of def.attributes) {
    if (!(name in body) || name === 'created_at' || name === 'updated_at') continue;
    const value = body[name];
    record.attributes[name] = name === 'custom_fields' && Array.isArray(value) ? customFieldValues(value, db) : (value ?? null);
    written.push(name);
  }
  for (const [from, to] of Object.entries(def.mirror ?? {})) {
    if (from in body) record.attributes[to] = body[from] ?? null;
  }
  for (const [name, spec] of Object.entries(def.relationships ?? {})) {
    if (spec.kind === 'string') {
      if (name in body) record.relationships[name] = blank(body[name]) ? null : String(body[name]);
      continue;
    }
    if (spec.kind === 'many') {
      const list = body[spec.from ?? `${singular(name)}_ids`];
      if (Array.isArray(list)) record.relationships[name] = list.map((id) => ref(spec.type, String(id)));
      continue;
    }
    const base = spec.from ?? name;
    const idKey = `${base}_id`;
    const typeKey = `${base}_type`;
    if (spec.type !== undefined) {
      if (idKey in body) record.relationships[name] = blank(body[idKey]) ? null : ref(spec.type, String(body[idKey]));
      continue;
    }
    if (!(idKey in body) && !(typeKey in body)) continue;
    const current = record.relationships[name];
    const type = refType(body[typeKey]) ?? (isRef(current) ? current.type : undefined);
    const id = blank(body[idKey]) ? (type === 'firm' ? FIRM_ID : isRef(current) ? current.id : undefined) : String(body[idKey]);
    record.relationships[name] = type && id ? ref(type, id) : null;
  }
  return written;
}

function nextId(db: Db, key: string): string {
  const id = db.nextId[key] ?? 1;
  db.nextId[key] = id + 1;
  return String(id);
}

/** Lawmatics' 422 for a create that lacks required fields: one error per field. */
export function missingFields(missing: readonly string[]): ApiError {
  const details = missing.map((name) => `${humanize(name)} can't be blank`);
  return new ApiError(422, 'Invalid Parameter', details[0] ?? 'Invalid parameters', {}, details.slice(1));
}

export interface Written {
  record: StoredRecord;
  /** Attributes the body set (rendered in the answer besides the default set). */
  written: string[];
}

export function createRecord(def: CollectionDef, db: Db, body: Body, internal: Record<string, string> = {}): Written {
  takeUpload(body);
  const missing = def.required?.(body) ?? [];
  if (missing.length > 0) throw missingFields(missing);
  const stamp = now();
  const record: StoredRecord = {
    id: nextId(db, def.key),
    attributes: { ...structuredClone(INITIAL[def.key] ?? {}), created_at: stamp, updated_at: stamp },
    relationships: {},
    internal,
  };
  const written = assign(def, record, body, db);
  def.derive?.(record.attributes);
  db.records[def.key] = [...(db.records[def.key] ?? []), record];
  return { record, written };
}

export function findRecord(def: CollectionDef, db: Db, id: string, scope?: (r: StoredRecord) => boolean): StoredRecord {
  const record = (db.records[def.key] ?? []).find((r) => r.id === id && (scope?.(r) ?? true));
  if (!record) throw recordNotFound(def, id);
  return record;
}

export function updateRecord(def: CollectionDef, db: Db, record: StoredRecord, body: Body): Written {
  const written = assign(def, record, body, db);
  def.derive?.(record.attributes);
  record.attributes.updated_at = now();
  return { record, written };
}

export function deleteRecord(def: CollectionDef, db: Db, record: StoredRecord): void {
  const records = db.records[def.key] ?? [];
  const index = records.indexOf(record);
  if (index >= 0) records.splice(index, 1);
}

/** The tag records with these names, created when missing (attaching by name creates tags, as Lawmatics does). */
export function tagsNamed(db: Db, def: CollectionDef, names: readonly unknown[]): Ref[] {
  return names
    .filter((name): name is string | number => typeof name === 'string' || typeof name === 'number')
    .map((name) => {
      const text = String(name).trim();
      const found = (db.records.tags ?? []).find((t) => String(t.attributes.name).toLowerCase() === text.toLowerCase());
      return ref('tag', found ? found.id : createRecord(def, db, { name: text }).record.id);
    });
}
