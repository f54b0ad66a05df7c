import { StringEnum } from '@portico/core';
import { Bool, Flag, IdFilter, Int, Num, notNull, Obj, PolyRef, Text } from '../schemas.js';
import { family } from './kit/rows.js';

// Clio Payments: the links clients pay online with, and the payments received through them.

export const clioPayments = family([
  {
    key: 'clio_payments_links',
    path: '/clio_payments/links',
    clio: '/clio_payments/links',
    record: ['clio_payments_link', 'clio_payments_links'],
    words: ['Clio Payments link (online payment request)', 'Clio Payments links (online payment requests)'],
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
      list: 'Lists Clio Payments links (online payment requests sent to clients); active=true keeps the unexpired ones.',
      get: 'Returns one Clio Payments link; the id comes from list_clio_payments_links or create_clio_payments_link.',
      create:
        'Creates a Clio Payments link to send to a client: subject (the bill, contact or bank account paid), destination_account, currency, description and duration are required; ask for url in fields.',
      update: 'Expires a Clio Payments link (id from list_clio_payments_links) with expired=true.',
    },
  },
  {
    key: 'clio_payments_payments',
    path: '/clio_payments/payments',
    clio: '/clio_payments/payments',
    record: ['clio_payments_payment', 'clio_payments_payments'],
    words: ['Clio Payments payment (online card or bank payment)', 'Clio Payments payments (online card and bank payments)'],
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
      list: 'Lists payments received online through Clio Payments, by bill, contact or state.',
      get: 'Returns one Clio Payments payment; the id comes from list_clio_payments_payments.',
    },
  },
]);
