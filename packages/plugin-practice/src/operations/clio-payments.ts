import { StringEnum } from '@portico/core/plugin';
import { Bool, Flag, IdFilter, Int, Num, notNull, Obj, PolyRef, Text } from '../schemas.js';
import { family } from './kit/rows.js';

// Clio Payments: the links clients pay online with, and the payments received through them.

export const clioPayments = family([
  {
    key: 'clio_payments_links',
    path: '/clio_payments/links',
    clio: '/clio_payments/links',
    record: ['clio_payments_link', 'clio_payments_links'],
    summaries: {
      list: 'List online payment links (Clio Payments) sent to clients',
      get: 'Get an online payment link (Clio Payments)',
      create: 'Create an online payment link (Clio Payments) for a client to pay',
      update: 'Void an online payment link (Clio Payments) so it expires',
    },
    verbs: ['list', 'get', 'create', 'update'],
    about: 'Clio Payments links clients use to pay online.',
    fields: 'id,url,amount,currency,expires_at,active',
    fieldsBy: {
      get: 'id,url,amount,currency,description,expires_at,active',
      create: 'id,url,amount,currency,description,expires_at,active',
      update: 'id,url,expires_at,active',
    },
    filters: {
      active: Flag('Only links that have not expired (true) or only expired ones (false).'),
    },
    body: {
      subject: PolyRef(
        'What is paid, as { "id": <id>, "type": "Bill" | "Contact" | "BankAccount" }: a bill, a contact’s outstanding bills, or a direct payment into a bank account.',
        ['Bill', 'Contact', 'BankAccount'],
      ),
      destination_account: Obj('The bank account the money goes to, as { "id": <bank account id> } (ids from list_bank_accounts).'),
      destination_contact: Obj('The contact paying a direct payment, as { "id": <contact id> }.'),
      currency: Text('Currency code of the payment (e.g. USD).'),
      amount: Num('Amount to pay; without it the payer enters it.'),
      description: Text('Short description of a direct payment.'),
      duration: Int('How long the link works, in seconds (at most 7776000, 90 days).'),
      email_address: Text('Email address pre-filled for the payer.'),
      is_allocated_as_revenue: Bool('Record a direct payment as revenue.'),
    },
    // A link cannot be changed, only ended.
    updateBody: { expired: Bool('true ends the link now, so it can no longer be used.') },
    required: ['subject', 'destination_account', 'currency', 'description', 'duration'],
    text: {
      list: 'Lists Clio Payments links, the online payment requests (pay-by-card or bank links) sent to clients for a bill, a contact or a bank account. active=true keeps the unexpired ones; the payments made through them are in list_clio_payments_payments.',
      get: 'Returns one Clio Payments link, the online payment request with its amount, subject and expiry; the id comes from list_clio_payments_links or create_clio_payments_link.',
      create:
        'Creates a Clio Payments link a client opens to pay online by card or bank transfer; subject (the bill, contact or bank account paid), destination_account, currency, description and duration are required. Ask for url in fields to get the link to send.',
      update:
        'Expires a Clio Payments link (id from list_clio_payments_links) with expired=true, so the client can no longer pay through it.',
    },
  },
  {
    key: 'clio_payments_payments',
    path: '/clio_payments/payments',
    clio: '/clio_payments/payments',
    record: ['clio_payments_payment', 'clio_payments_payments'],
    summaries: {
      list: 'List online card and bank payments received through Clio Payments',
      get: 'Get an online card or bank payment made through Clio Payments',
    },
    verbs: ['list', 'get'],
    about: 'Payments received through Clio Payments.',
    fields: 'id,amount,currency,state,confirmation_number,description,created_at',
    order: null,
    filters: {
      bill_id: IdFilter('Only payments of this bill (ids from list_bills).', notNull),
      contact_id: IdFilter('Only payments of this contact.', notNull),
      state: StringEnum(
        ['pending', 'authorized', 'completed', 'voided', 'failed', 'canceled', 'requires_confirmation', 'completed_requiring_allocation'],
        { description: 'Only payments in this state.' },
      ),
    },
    without: ['created_since', 'updated_since'],
    text: {
      list: 'Lists the online payments — credit card, debit card and bank (eCheck) payments — clients made through Clio Payments. Filter by bill_id, contact_id or state; payments recorded against bills by other means are allocations (list_allocations).',
      get: 'Returns one online card or bank payment a client made through Clio Payments, with its amount, state and payer; the id comes from list_clio_payments_payments.',
    },
  },
]);
