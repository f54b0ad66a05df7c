import { type EmulatorReply, isJsonObject, jsonReply } from '@portico/core/testing/emulator';
import type { Json } from './company.js';
import { QboFault, qboTime, sandboxNow } from './errors.js';
import { base, USD } from './records.js';
import type { Company } from './seed.js';

// What the sandbox writes (a customer created), and QuickBooks' `requestid`: a request repeated with the same requestid
// for the same company is answered as the first time and does nothing more.

/** QuickBooks' limit on a requestid (all operations but batch). */
export const MAX_REQUEST_ID_LENGTH = 50;
/** The answers kept per sandbox for repeated requestids; past it, the oldest is forgotten. */
const MAX_KEPT = 10_000;

/** The first answer to each requestid of each company. */
export class RequestIds {
  private readonly answers = new Map<string, EmulatorReply>();

  /** The request's requestid, checked (a ValidationFault past QuickBooks' limit), or undefined when it has none. */
  static of(query: URLSearchParams): string | undefined {
    const id = query.get('requestid') ?? undefined;
    if (id !== undefined && (id.length === 0 || id.length > MAX_REQUEST_ID_LENGTH)) {
      throw new QboFault(400, 'ValidationFault', {
        Message: 'Invalid RequestId',
        Detail: `requestid must be 1 to ${MAX_REQUEST_ID_LENGTH} characters`,
        code: '2010',
        element: 'requestid',
      });
    }
    return id;
  }

  /** The answer to the first request of this requestid, if one was answered. */
  replay(realmId: string, requestId: string): EmulatorReply | undefined {
    return this.answers.get(`${realmId}\u0000${requestId}`);
  }

  keep(realmId: string, requestId: string, reply: EmulatorReply): void {
    if (this.answers.size >= MAX_KEPT) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(`${realmId}\u0000${requestId}`, reply);
  }
}

const MAX_NAME = 500;

/**
 * `POST /v3/company/{realm}/customer`: a new customer from its `DisplayName` (unique among customers, as QuickBooks
 * requires) and optional `GivenName`, `FamilyName`, `CompanyName`, `PrimaryEmailAddr.Address` and `Notes`.
 */
export function createCustomer(company: Company, body: unknown): EmulatorReply {
  if (!isJsonObject(body)) throw invalid('The request body must be a Customer object');
  const name = typeof body.DisplayName === 'string' ? body.DisplayName.trim() : '';
  if (name === '' || name.length > MAX_NAME) throw invalid(`DisplayName is required, at most ${MAX_NAME} characters`, 'DisplayName');
  const customers = company.entities.Customer;
  if (customers.some((c) => String(c.DisplayName).toLowerCase() === name.toLowerCase())) {
    throw new QboFault(400, 'ValidationFault', {
      Message: 'Duplicate Name Exists Error',
      Detail: `The name supplied already exists. : ${name}`,
      code: '6240',
    });
  }
  const text = (field: string): Json => {
    const value = body[field];
    return typeof value === 'string' && value.length <= MAX_NAME ? { [field]: value } : {};
  };
  const email = isJsonObject(body.PrimaryEmailAddr) ? body.PrimaryEmailAddr.Address : undefined;
  const id = String(Math.max(0, ...customers.map((c) => Number(c.Id))) + 1);
  const today = sandboxNow().toISOString().slice(0, 10);
  const customer: Json = {
    ...base(id, today, 16),
    DisplayName: name,
    FullyQualifiedName: name,
    PrintOnCheckName: name,
    ...text('GivenName'),
    ...text('FamilyName'),
    ...text('CompanyName'),
    ...text('Notes'),
    ...(typeof email === 'string' && email.length <= MAX_NAME ? { PrimaryEmailAddr: { Address: email } } : {}),
    Job: false,
    BillWithParent: false,
    IsProject: false,
    Taxable: false,
    Active: true,
    Balance: 0,
    BalanceWithJobs: 0,
    CurrencyRef: USD,
  };
  customers.push(customer);
  return jsonReply(200, { Customer: structuredClone(customer), time: qboTime() });
}

const invalid = (detail: string, element = '') =>
  new QboFault(400, 'ValidationFault', { Message: 'Request has invalid or unsupported property', Detail: detail, code: '2010', element });
