import { type EmulatorRequest, InvalidJsonError, isJsonObject } from '@portico/core/testing/emulator';
import { derivedOnCreate, derivedOnUpdate } from './derived.js';
import { ClioError, type Collection, type Db, etagOf, insert, iso, type Row, type Stored, tick, unprocessable } from './model.js';
import { parseRule } from './recurrence.js';

// Create and update: the `{ "data": { … } }` body checked against the collection's body fields from Clio's document.

type Kind = 'object' | 'array' | 'number' | 'boolean' | 'string';

const kindOf = (value: unknown): Kind | undefined =>
  value === null || value === undefined
    ? undefined
    : Array.isArray(value)
      ? 'array'
      : (typeof value as Kind) === 'object'
        ? 'object'
        : (['number', 'boolean', 'string'] as const).find((k) => typeof value === k);

/** The kind a body field takes: as seeded in this collection, then anywhere, then by its name (`_id` number, `_at` text). */
/** Body fields Clio's document types otherwise than the record answers them: a task's parent task goes as its id. */
const BODY_KINDS: Record<string, Record<string, Kind>> = { '/tasks': { cascading_source: 'number' } };

function expected(db: Db, collection: Collection, field: string): Kind | undefined {
  const declared = BODY_KINDS[collection.template]?.[field];
  if (declared) return declared;
  // Only this collection's own records say what a field holds: the same name means other things elsewhere (a
  // communication's subject is text, a reminder's subject is the task or calendar entry it is about).
  for (const stored of db.records.get(collection.template) ?? []) {
    const kind = kindOf(stored.row[field]);
    if (kind) return kind;
  }
  if (/_id$/.test(field)) return 'number';
  if (/(_at|_date|^date)$/.test(field)) return 'string';
  return undefined;
}

/** The `data` object of a write, checked: known fields, right kinds, and (on create) the required ones. */
export function readData(request: EmulatorRequest, db: Db, collection: Collection, creating: boolean): Record<string, unknown> {
  let body: unknown;
  try {
    body = request.json();
  } catch (error) {
    if (error instanceof InvalidJsonError) throw new ClioError(400, 'BadRequest', 'The request body is not valid JSON');
    throw error;
  }
  if (body === undefined && collection.body.size === 0) return {};
  if (!isJsonObject(body) || !isJsonObject(body.data)) throw unprocessable('The request body must be an object with a "data" object');
  const data = body.data;
  const problems: string[] = [];
  for (const [field, value] of Object.entries(data)) {
    if (collection.body.size > 0 && !collection.body.has(field)) {
      problems.push(`${field} is not a valid attribute`);
      continue;
    }
    const want = expected(db, collection, field);
    const got = kindOf(value);
    if (want && got && want !== got && !(want === 'number' && got === 'string' && /^\d+(\.\d+)?$/.test(value as string))) {
      problems.push(`${field} must be ${want === 'object' ? 'an object' : `a ${want}`}`);
    } else if (got === 'object' && want === 'object' && 'id' in (value as object) && typeof (value as { id: unknown }).id !== 'number') {
      problems.push(`${field}.id must be a number`);
    }
  }
  // a calendar entry's recurrence: an RRULE the list can expand ('' or null makes the entry non-recurring)
  if (typeof data.recurrence_rule === 'string') {
    try {
      parseRule(data.recurrence_rule);
    } catch (error) {
      if (!(error instanceof ClioError)) throw error;
      problems.push(error.message);
    }
  }
  if (creating) {
    for (const field of collection.required) {
      const value = data[field];
      if (value === undefined || value === null || value === '') problems.push(`${field} can't be blank`);
    }
  }
  if (problems.length > 0) throw unprocessable(`Validation failed: ${problems.join(', ')}`);
  return data;
}

/** What Clio sets on a new record when the request leaves it out: a new activity is unbilled, and billable unless said. */
const CREATED_DEFAULTS: Record<string, Record<string, unknown>> = { '/activities': { billed: false, non_billable: false } };

export function create(db: Db, collection: Collection, data: Record<string, unknown>, scope: Record<string, string>): Row {
  const { id: _id, etag: _etag, created_at: _c, updated_at: _u, ...fields } = data;
  return insert(
    db,
    collection.template,
    derivedOnCreate(db, collection.template, { ...CREATED_DEFAULTS[collection.template], ...fields }),
    scope,
  );
}

export function update(db: Db, stored: Stored, data: Record<string, unknown>, template = ''): Row {
  const { id: _id, etag: _etag, created_at: _c, updated_at: _u, ...fields } = data;
  Object.assign(stored.row, derivedOnUpdate(template, fields), { updated_at: iso(tick(db)) });
  stored.version += 1;
  stored.row.etag = etagOf(stored);
  return stored.row;
}
