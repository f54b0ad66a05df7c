import { bytesReply, type EmulatorReply, isJsonObject, jsonReply } from '@portico/core/testing/emulator';
import { collection } from './collections.js';
import { ApiError, type Body, type CollectionDef, type Db, humanize, notFound, recordNotFound, ref, type StoredRecord } from './model.js';
import { type Selection, selection } from './query.js';
import { createRecord, findRecord, missingFields, type Resource, render, tagsNamed } from './records.js';
import { USER_ME } from './seed.js';

/**
 * The endpoints beside the collections' five verbs: the finders, `tags/attach|detach`, the custom form endpoints,
 * email campaign stats, file download and `users/me`; and what a matter create does besides storing the record
 * (finding or creating its contact and company, notes and tags given inline).
 */

const blank = (value: unknown) => value === undefined || value === null || value === '';
const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');
const lower = (value: unknown) =>
  String(value ?? '')
    .trim()
    .toLowerCase();

/** Phone numbers match on their digits (a 10-digit number matches +1 and formatted variants). */
function samePhone(stored: unknown, wanted: string): boolean {
  const a = digits(stored);
  const b = digits(wanted);
  if (a.length < 7 || b.length < 7) return a !== '' && a === b;
  return a.endsWith(b) || b.endsWith(a);
}

type FinderKind = 'phone' | 'email' | 'name';

function matcher(def: CollectionDef, kind: FinderKind, value: string): Array<(r: StoredRecord) => boolean> {
  const wanted = lower(value).replace(/\s+/g, ' ');
  if (kind === 'phone')
    return [(r) => samePhone(r.attributes.phone ?? r.attributes.phone_number, value) || samePhone(r.attributes.phone_number, value)];
  if (kind === 'email') {
    return [
      (r) => lower(r.attributes.email) === wanted || lower(r.attributes.email_address) === wanted,
      (r) => lower(r.attributes.email).includes(wanted),
    ];
  }
  if (def.key === 'companies') return [(r) => lower(r.attributes.name) === wanted, (r) => lower(r.attributes.name).includes(wanted)];
  const full = (r: StoredRecord) => `${lower(r.attributes.first_name)} ${lower(r.attributes.last_name)}`.trim();
  return [(r) => full(r) === wanted || lower(r.attributes.first_name) === wanted, (r) => full(r).includes(wanted)];
}

/**
 * `GET /v1/{prospects|contacts|companies}/find_by_{phone|email|name}/{value}`: the first (lowest id) record that
 * matches, exact matches before partial ones; companies fall back to their contacts. A miss is a 404.
 */
export function find(def: CollectionDef, kind: string, value: string, db: Db, query: URLSearchParams): EmulatorReply {
  if (kind !== 'phone' && kind !== 'email' && kind !== 'name') throw notFound();
  const records = [...(db.records[def.key] ?? [])].sort((a, b) => Number(a.id) - Number(b.id));
  let found: StoredRecord | undefined;
  for (const test of matcher(def, kind, value)) {
    found ??= records.find(test);
  }
  if (!found && def.key === 'companies' && kind !== 'name') {
    const contacts = collection('contacts');
    const person = (db.records.contacts ?? [])
      .filter((c) => typeof c.relationships.company === 'string')
      .find(matcher(contacts, kind, value)[0] as (r: StoredRecord) => boolean);
    found = records.find((company) => lower(company.attributes.name) === lower(person?.relationships.company));
  }
  if (!found)
    throw notFound(
      `No ${humanize(def.type).toLowerCase()} found with ${kind === 'name' ? 'name' : kind === 'email' ? 'email address' : 'phone number'} '${value}'.`,
    );
  return jsonReply(200, { data: render(def, found, db, selection(query, def.finderFields ?? def.defaults)) });
}

// ---- tags -----------------------------------------------------------------------------------------------------------

const TAG_TARGETS: Array<[string, string]> = [
  ['matter_id', 'prospects'],
  ['prospect_id', 'prospects'],
  ['contact_id', 'contacts'],
  ['company_id', 'companies'],
  ['task_id', 'tasks'],
];

/** `POST /v1/tags/attach|detach` `{ matter_id|contact_id|company_id|task_id, tags: [names] }` → the target's tags. */
export function attachTags(action: 'attach' | 'detach', body: Body, db: Db, query: URLSearchParams): EmulatorReply {
  const target = TAG_TARGETS.find(([key]) => !blank(body[key]));
  if (!target) throw new ApiError(422, 'Invalid Parameter', 'One of matter_id, contact_id, company_id or task_id is required.');
  if (!Array.isArray(body.tags)) throw missingFields(['tags']);
  const [key, collectionKey] = target;
  const def = collection(collectionKey);
  const record = findRecord(def, db, String(body[key]));
  const tags = collection('tags');
  const current = Array.isArray(record.relationships.tags) ? record.relationships.tags : [];
  if (action === 'attach') {
    const added = tagsNamed(db, tags, body.tags).filter((t) => !current.some((c) => c.id === t.id));
    record.relationships.tags = [...current, ...added];
  } else {
    const names = new Set(body.tags.map(lower));
    record.relationships.tags = current.filter((t) => !names.has(lower(db.records.tags?.find((r) => r.id === t.id)?.attributes.name)));
  }
  const attached = (record.relationships.tags as Array<{ id: string }>).map((t) => findRecord(tags, db, t.id));
  if (def.key === 'tasks')
    record.attributes.tags = attached.map((t) => ({ id: Number(t.id), name: t.attributes.name, color: t.attributes.color }));
  return jsonReply(200, { data: attached.map((t) => render(tags, t, db, selection(query, tags.defaults))) });
}

// ---- writes with side effects ----------------------------------------------------------------------------------------

/** Notes (`notes: [{ name, body }]`) and tags (`tags: [names]`) given inline in a matter, contact or company body. */
export function afterWrite(def: CollectionDef, record: StoredRecord, body: Body, db: Db): void {
  if (def.relationships?.tags && Array.isArray(body.tags)) {
    const current = Array.isArray(record.relationships.tags) ? record.relationships.tags : [];
    const added = tagsNamed(db, collection('tags'), body.tags).filter((t) => !current.some((c) => c.id === t.id));
    record.relationships.tags = [...current, ...added];
  }
  if ((def.key === 'prospects' || def.key === 'contacts') && Array.isArray(body.notes)) {
    for (const note of body.notes.filter(isJsonObject)) {
      createRecord(collection('notes'), db, {
        name: note.name ?? null,
        body: note.body ?? '',
        notable_type: def.type,
        notable_id: record.id,
      });
    }
  }
}

/**
 * A new matter's contact, as Lawmatics links them: `contact_id` (must exist), else the contact matched by
 * `match_contact_by` (`email` or `phone`), else a new contact from the matter's name, email and phone. A company
 * matter (`company_id`, or `company_name`, found or created) is linked to its company as well.
 */
export function linkMatter(record: StoredRecord, body: Body, db: Db): void {
  const contacts = collection('contacts');
  const companies = collection('companies');
  if (!blank(body.company_id)) record.internal.company_id = findRecord(companies, db, String(body.company_id)).id;
  else if (!blank(body.company_name)) {
    const existing = (db.records.companies ?? []).find((c) => lower(c.attributes.name) === lower(body.company_name));
    record.internal.company_id = existing?.id ?? createRecord(companies, db, { name: body.company_name }).record.id;
  }
  if (!blank(body.contact_id)) {
    record.internal.contact_id = findRecord(contacts, db, String(body.contact_id)).id;
    return;
  }
  const by = lower(body.match_contact_by);
  const matched =
    by === 'email' && !blank(body.email)
      ? (db.records.contacts ?? []).find((c) => lower(c.attributes.email) === lower(body.email))
      : by === 'phone' && !blank(body.phone)
        ? (db.records.contacts ?? []).find((c) => samePhone(c.attributes.phone, String(body.phone)))
        : undefined;
  if (matched) record.internal.contact_id = matched.id;
  else if (!blank(body.first_name)) {
    const fields = Object.fromEntries(['first_name', 'last_name', 'email', 'phone'].filter((k) => k in body).map((k) => [k, body[k]]));
    record.internal.contact_id = createRecord(contacts, db, fields).record.id;
  }
}

// ---- custom forms ---------------------------------------------------------------------------------------------------

interface Component {
  id: string;
  label: string;
  required?: boolean;
}

function components(form: StoredRecord): Component[] {
  const rows = Array.isArray(form.attributes.rows) ? (form.attributes.rows as Array<{ components?: Component[] }>) : [];
  return rows.flatMap((row) => row.components ?? []).filter((c) => typeof c.id === 'string');
}

/**
 * `POST /v1/forms/{uuid}/submit` (no token needed): the values keyed by the form's field ids create a matter (or a
 * contact, for a Contact form) and an entry of the form; a missing required field is a 422.
 */
export function submitForm(uuid: string, body: Body, db: Db, query: URLSearchParams): EmulatorReply {
  const forms = collection('forms');
  const form = findRecord(forms, db, uuid);
  const fields = components(form);
  const missing = fields.filter((c) => c.required && blank(body[c.id])).map((c) => c.id);
  if (missing.length > 0) throw missingFields(missing);
  const def = collection(form.attributes.type === 'Contact' ? 'contacts' : 'prospects');
  const values: Body = {};
  const custom: Array<{ id: string; value: unknown }> = [];
  for (const [key, value] of Object.entries(body)) {
    const id = /^custom_field_(\d+)$/.exec(key)?.[1];
    if (id) custom.push({ id, value });
    else values[key] = value;
  }
  if (custom.length > 0) values.custom_fields = custom;
  const { record, written } = createRecord(def, db, values);
  if (def.key === 'prospects') linkMatter(record, values, db);
  createRecord(
    collection('form_entries'),
    db,
    {
      contactable_type: def.type,
      contactable_id: record.id,
      custom_form_id: uuid,
      body: fields.filter((c) => !blank(body[c.id])).map((c) => ({ label: c.label, value: body[c.id] })),
    },
    { form_id: uuid },
  );
  const shown: Selection = selection(query, [...def.defaults, ...written.filter((name) => !def.defaults.includes(name))]);
  return jsonReply(201, { data: render(def, record, db, shown) });
}

// ---- small reads ----------------------------------------------------------------------------------------------------

/** `GET /v1/email_campaign_stats/{id}`: the campaign's delivery counts and rates. */
export function campaignStats(id: string, db: Db): EmulatorReply {
  const campaign = findRecord(collection('email_campaigns'), db, id);
  const n = (key: string) => Number(campaign.internal[key] ?? 0);
  const rate = (part: number) => (n('delivered') === 0 ? 0 : Math.round((part / n('delivered')) * 1000) / 10);
  const attributes = {
    sent: n('sent'),
    delivered: n('delivered'),
    opened: n('opened'),
    clicked: n('clicked'),
    bounced: n('bounced'),
    unsubscribed: n('unsubscribed'),
    open_rate: rate(n('opened')),
    click_rate: rate(n('clicked')),
  };
  const data: Resource = {
    id,
    type: 'email_campaign_stats',
    attributes,
    relationships: { email_campaign: { data: ref('email_campaign', id) } },
  };
  return jsonReply(200, { data });
}

/** `GET /v1/files/download/{id}`: the file's bytes, or Lawmatics' 404 body. */
export function download(id: string, db: Db): EmulatorReply {
  const file = db.records.files?.find((f) => f.id === id);
  if (!file) throw new ApiError(404, 'Not found', `File with id ${id} was not found.`);
  const reply = bytesReply(200, Buffer.from(`Sandbox copy of ${String(file.attributes.file_name)}\n`), String(file.attributes.file_type));
  return { ...reply, headers: { 'content-disposition': `attachment; filename="${String(file.attributes.file_name)}"` } };
}

/**
 * `GET /v1/users/me`: the user the token belongs to — the person who signed in for it (`email`), or, for the sandbox's
 * own token, the firm's account holder.
 */
export function me(db: Db, query: URLSearchParams, email?: string): EmulatorReply {
  const users = collection('users');
  const mine = email === undefined ? undefined : db.records.users?.find((u) => u.attributes.email === email);
  const user = mine ?? db.records.users?.find((u) => u.id === USER_ME);
  if (!user) throw recordNotFound(users, USER_ME);
  return jsonReply(200, { data: render(users, user, db, selection(query, users.defaults)) });
}
