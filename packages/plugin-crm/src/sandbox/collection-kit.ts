import { type Body, type CollectionDef, type Db, type Ref, type RelSpec, refType, type StoredRecord, type Verb } from './model.js';

/** The building blocks of the collection table: field lists, required-field checks, relationship specs, reverse links. */

export const list = (text: string): string[] => text.trim().split(/\s+/);

export const ALL: readonly Verb[] = ['list', 'get', 'create', 'update', 'delete'];
export const READ: readonly Verb[] = ['list', 'get'];

export const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The named body fields that are missing or blank. */
export const need =
  (...names: string[]) =>
  (body: Body): string[] =>
    names.filter((name) => blank(body[name]));

/** A polymorphic owner (`addressable_type` + `addressable_id`; a Firm needs no id). */
export const needOwner =
  (rel: string, ...names: string[]) =>
  (body: Body): string[] => {
    const type = refType(body[`${rel}_type`]);
    const missing = type === undefined || (type !== 'firm' && blank(body[`${rel}_id`]));
    return [...(missing ? [rel] : []), ...need(...names)(body)];
  };

export const one = (type?: string, from?: string): RelSpec => ({ kind: 'one', ...(type ? { type } : {}), ...(from ? { from } : {}) });
export const many = (type: string, from?: string): RelSpec => ({ kind: 'many', type, ...(from ? { from } : {}) });
export const text: RelSpec = { kind: 'string' };

export const sameRef = (value: unknown, type: string, id: string) =>
  Array.isArray(value)
    ? value.some((r: Ref) => r.type === type && r.id === id)
    : typeof value === 'object' && value !== null && (value as Ref).type === type && (value as Ref).id === id;

/** Records of `key` whose relationship `rel` points at the record (of `type`). */
export const linked =
  (key: string, rel: string, type: string, as: string) =>
  (record: StoredRecord, db: Db): Ref[] =>
    (db.records[key] ?? []).filter((r) => sameRef(r.relationships[rel], type, record.id)).map((r) => ({ id: r.id, type: as }));

/** Records of `key` whose internal link `link` is the record's id. */
export const owned =
  (key: string, link: string, as: string) =>
  (record: StoredRecord, db: Db): Ref[] =>
    (db.records[key] ?? []).filter((r) => r.internal[link] === record.id).map((r) => ({ id: r.id, type: as }));

/** Ids of the `key` records a tag is attached to (filtering tags by `matter_id`, `contact_id`…). */
export const taggedBy =
  (key: string) =>
  (tag: StoredRecord, db: Db): string[] =>
    (db.records[key] ?? []).filter((r) => sameRef(r.relationships.tags, 'tag', tag.id)).map((r) => r.id);

export const info = (key: string, type: string): CollectionDef => ({
  key,
  path: key,
  type,
  verbs: ALL,
  attributes: list('info label created_at updated_at'),
  relationships: { informationable: one() },
  defaults: list('info label informationable'),
  required: needOwner('informationable', 'label', 'info'),
});

export const named = (key: string, type: string, verbs: readonly Verb[], extra = ''): CollectionDef => ({
  key,
  path: key,
  type,
  verbs,
  attributes: list(`name ${extra} created_at updated_at`),
  defaults: list('created_at name updated_at'),
  required: need('name'),
});

export const TIME =
  list(`description duration duration_rounded is_billable is_flat_fee billable rate rate_cents rate_flat_fee started_at completed_at
  created_at updated_at`);

export const billable = (key: string, type: string): CollectionDef => ({
  key,
  path: key,
  type,
  verbs: ALL,
  status: { create: 200 },
  attributes: TIME,
  relationships: {
    activity_type: one('activity_type', 'billing_activity_type'),
    contactable: one(),
    invoice: one('invoice'),
    staff: one('user', 'user'),
    created_by: one('user'),
  },
  defaults: list('description duration is_billable is_flat_fee activity_type contactable invoice staff'),
  required: need('user_id', 'duration'),
  derive: (a) => {
    if (a.billable !== undefined && a.billable !== null) a.is_billable = a.billable === true || a.billable === 'true';
    if (a.rate_flat_fee !== undefined && a.rate_flat_fee !== null) a.is_flat_fee = a.rate_flat_fee === true || a.rate_flat_fee === 'true';
    // A form or multipart body (how Lawmatics documents time entries) carries numbers as text; Lawmatics stores numbers.
    for (const name of ['duration', 'rate_cents', 'started_at', 'completed_at']) {
      const value = a[name];
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) a[name] = Number(value);
    }
    if (typeof a.duration === 'number') a.duration_rounded = Math.ceil(a.duration * 10) / 10;
  },
});

const cityLine = (a: Record<string, unknown>) => [a.city, [a.state, a.zipcode].filter(Boolean).join(' ')].filter(Boolean).join(', ');

/** A company's one-line `address` from its street, city, state, zip code and country. */
export function companyAddress(a: Record<string, unknown>): void {
  a.address = [a.street, a.street2, cityLine(a), a.country].filter(Boolean).join(', ') || null;
}

/** An address's computed texts, as Lawmatics renders them. */
export function addressText(a: Record<string, unknown>): void {
  const street = [a.street, a.street2].filter(Boolean).join(', ');
  const second = cityLine(a);
  Object.assign(a, {
    full_street: street,
    second_half: second,
    city_state_zip: second,
    full_address: [street, second].filter(Boolean).join(', '),
  });
}

/** A custom field needs a name, type and field type; lists two options, lookups a lookup type, practice area fields their area. */
export function needCustomField(body: Body): string[] {
  const missing = need('name', 'type', 'field_type')(body);
  const options = body.list_options;
  if ((body.field_type === 'list' || body.field_type === 'multi_picklist') && (!Array.isArray(options) || options.length < 2)) {
    missing.push('list_options');
  }
  if (body.field_type === 'lookup') missing.push(...need('lookup_type')(body));
  if (body.type === 'PracticeArea') missing.push(...need('practice_area')(body));
  return missing;
}
