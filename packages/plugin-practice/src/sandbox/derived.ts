// What Clio fills in itself when a record is created: numbers, dates, primary details, states, the casing it answers in.
import { sandboxToday } from '@portico/core/testing/emulator';
import { BY_TEMPLATE, type Db, lookup, records } from './model.js';

type Fields = Record<string, unknown>;

/** Clio takes a matter's status in lower case and answers it capitalised. */
const STATUS: Readonly<Record<string, string>> = { open: 'Open', pending: 'Pending', closed: 'Closed' };

/**
 * The fields a new record of `template` gets from Clio beside the ones the request set (which win where Clio lets
 * them): a matter its number, display number, status and the date of that status; a contact its primary phone and
 * email from the default ones given; a reminder its state.
 */
export function derivedOnCreate(db: Db, template: string, fields: Fields): Fields {
  if (template === '/matters') return matter(db, fields);
  if (template === '/contacts') return contact(fields);
  // A reminder is scheduled for delivery as soon as it is saved.
  if (template === '/reminders') return { state: 'scheduled', ...fields };
  return fields;
}

function matter(db: Db, fields: Fields): Fields {
  const collection = BY_TEMPLATE.get('/matters');
  const numbers = collection ? records(db, collection).map((s) => Number(s.row.number) || 0) : [];
  const number = typeof fields.number === 'number' ? fields.number : Math.max(0, ...numbers) + 1;
  const status = STATUS[String(fields.status ?? 'open').toLowerCase()] ?? 'Open';
  const today = sandboxToday();
  return {
    ...fields,
    number,
    // the firm's numbering: the number on three digits, then the client's last name or the company's first word
    display_number: `${String(number).padStart(3, '0')}-${labelOf(db, fields.client)}`,
    status,
    open_date: fields.open_date ?? (status === 'Open' ? today : null),
    pending_date: fields.pending_date ?? (status === 'Pending' ? today : null),
    close_date: fields.close_date ?? (status === 'Closed' ? today : null),
  };
}

function labelOf(db: Db, client: unknown): string {
  const id = typeof client === 'object' && client !== null ? Number((client as { id?: unknown }).id) : Number.NaN;
  const row = Number.isFinite(id) ? lookup(db, '/contacts', id)?.row : undefined;
  if (!row) return 'Internal';
  const name = row.type === 'Company' ? (String(row.name ?? '').split(' ')[0] ?? '') : String(row.last_name ?? row.name ?? '');
  return name.replace(/[^A-Za-z0-9'-]/g, '') || 'Client';
}

/** The default one of a contact's phone numbers or email addresses (else the first), as Clio makes it the primary. */
function primary(list: unknown, flag: string, value: string): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const items = list.filter((item): item is Fields => typeof item === 'object' && item !== null);
  const chosen = items.find((item) => item[flag] === true) ?? items[0];
  return typeof chosen?.[value] === 'string' ? (chosen[value] as string) : undefined;
}

function contact(fields: Fields): Fields {
  const phone = primary(fields.phone_numbers, 'default_number', 'number');
  const email = primary(fields.email_addresses, 'default_email', 'address');
  return {
    ...(phone === undefined ? {} : { primary_phone_number: phone }),
    ...(email === undefined ? {} : { primary_email_address: email }),
    ...fields,
  };
}

/** A change Clio reads as it reads a create: a matter's status in any casing is stored capitalised. */
export function derivedOnUpdate(template: string, fields: Fields): Fields {
  if (template !== '/matters' || typeof fields.status !== 'string') return fields;
  return { ...fields, status: STATUS[fields.status.toLowerCase()] ?? fields.status };
}
