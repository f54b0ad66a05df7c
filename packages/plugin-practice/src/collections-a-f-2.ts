import { StringEnum, Type } from '@portico/core';
import type { CollectionRow } from './factory.js';
import { BodyDay, Bool, Day, IdFilter, Num, Obj, Str, Text } from './schemas.js';

// The collection table, continued: the rest of Clio's collections tagged A–F — banking, billing helpers, Clio
// Payments, custom actions, damages, document archives, automations, categories and templates, expense categories,
// calendar visibilities and the UK legal aid rate tables (the last five in collections-a-f-3.ts). Where Clio's create
// and update take different body fields the collection has two rows (one per body).

const nullable = { nullable: true } as const;
const notNull = { nullable: false } as const;
const Id = Type.Integer;

/** Filters of list_billable_clients, list_billable_matters and list_billable_matter_ids. */
const billableFilters = (what: string) => ({
  client_id: IdFilter(`Only ${what} of this client contact.`, notNull),
  matter_id: IdFilter(`Only ${what} of this matter.`, notNull),
  originating_attorney_id: IdFilter(`Only ${what} whose matters’ originating attorney is this user.`, nullable),
  responsible_attorney_id: IdFilter(`Only ${what} whose matters’ responsible attorney is this user.`, nullable),
  start_date: Day(`Only ${what} with unbilled work on or after this date`),
  end_date: Day(`Only ${what} with unbilled work on or before this date`),
  query: Text('Wildcard search in the matter’s display number or number, or the client’s name.'),
});

export const COLLECTIONS_A_F_2: readonly CollectionRow[] = [
  {
    key: 'bank_accounts',
    path: '/bank_accounts',
    clio: '/bank_accounts',
    record: ['bank_account', 'bank_accounts'],
    verbs: ['get', 'update', 'delete'],
    about: 'The firm’s operating and trust bank accounts.',
    fields: 'id,name,type,currency,balance,institution,account_number,default_account',
    body: {
      name: Str('Name shown in Clio.'),
      currency: Str('Currency code of the account (e.g. USD).'),
      account_number: Str('Account number.'),
      domicile_branch: Str('Domicile branch.'),
      general_ledger_number: Str('General ledger number.'),
      holder: Str('Account holder.'),
      institution: Str('Bank.'),
      swift: Str('SWIFT code.'),
      transit_number: Str('Transit (routing) number.'),
      controlled_account: Bool('A controlled trust account for one client or matter.'),
      default_account: Bool('Make it the default account of its type.'),
    },
    text: {
      get: 'Returns one bank account (operating or trust); the id comes from list_bank_accounts. Ask for balance in fields for its balance.',
      update: 'Changes a bank account’s details (id from list_bank_accounts): name, bank, numbers, default; its type and balance stay.',
      delete:
        'Deletes a bank account (id from list_bank_accounts); accounts with transactions cannot be deleted. Answers 204 with no body.',
    },
  },
  {
    key: 'bank_transactions',
    path: '/bank_transactions',
    clio: '/bank_transactions',
    record: ['bank_transaction', 'bank_transactions'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Money in and out of the firm’s bank accounts.',
    fields: 'id,date,amount,currency,description,transaction_type,funds_in,funds_out,bank_account_id',
    order: 'id(asc)',
    filters: {
      bank_account_id: IdFilter('Only transactions of this bank account (ids from list_bank_accounts).', notNull),
      client_id: IdFilter('Only transactions of this client contact.', notNull),
      matter_id: IdFilter('Only transactions of this matter.', notNull),
      type: StringEnum(['asset', 'liability'], { description: 'Asset (operating) or liability (trust) transactions.' }),
    },
    // Clio added create and update after the document saved here; the body fields are the writable fields of its bank
    // transaction record (README, "Where the catalog is silent").
    body: {
      bank_account_id: Num('Id of the bank account the money moves in or out of (from list_bank_accounts).'),
      date: BodyDay('Date of the transaction'),
      amount: Num('Amount; positive for money in, negative for money out.'),
      description: Str('What the transaction is for, as it appears in the ledger.'),
      source: Str('Where the money came from or went to (a payer, a payee, a cheque).'),
      confirmation: Str('Confirmation or reference number (a cheque number, a wire reference).'),
      transaction_type: Str('Kind of transaction as Clio names it (e.g. Deposit, Withdrawal).'),
      exchange_rate: Num('Exchange rate to the account’s currency, for a transaction in another currency.'),
    },
    required: ['bank_account_id', 'date', 'amount'],
    text: {
      list: 'Lists bank transactions (deposits, payments, transfers) by bank account, client, matter or kind — e.g. a client’s trust ledger with client_id and type=liability.',
      get: 'Returns one bank transaction; the id comes from list_bank_transactions.',
      create:
        'Records money in or out of a bank account by hand (bank_account_id from list_bank_accounts, date and amount required; negative amount for money out).',
      update: 'Corrects a bank transaction recorded by hand (id from list_bank_transactions): date, amount, description, reference.',
      delete:
        'Deletes a bank transaction (id from list_bank_transactions); Clio refuses transactions tied to bills or reconciled statements. Answers 204 with no body.',
    },
  },
  {
    key: 'bank_transfers',
    path: '/bank_transfers',
    clio: '/bank_transfers',
    record: ['bank_transfer', 'bank_transfers'],
    verbs: ['get'],
    about: 'Transfers between the firm’s bank accounts.',
    fields: 'id,amount,date,description,primary_authorizer,created_at',
    text: {
      get: 'Returns one transfer between bank accounts (e.g. trust to operating to pay a bill); the id is the source of a transfer transaction in list_bank_transactions.',
    },
  },
  {
    key: 'bill_themes',
    path: '/bill_themes',
    clio: '/bill_themes',
    record: ['bill_theme', 'bill_themes'],
    verbs: ['list', 'update'],
    about: 'Layouts of printed bills.',
    fields: 'id,name,default,config',
    order: null,
    body: {
      name: Str('Name of the theme.'),
      config: Str(
        'The theme’s settings as a JSON string with "show", "text" and "css" sections (which parts of the bill appear, their wording, their styles).',
      ),
    },
    text: {
      list: 'Lists the bill themes (layouts of printed bills); their ids go into update_bill’s bill_theme.',
      update:
        'Renames a bill theme or changes its config (id from list_bill_themes); bills using the theme follow unless they override it.',
    },
  },
  {
    key: 'billable_clients',
    path: '/billable_clients',
    clio: '/billable_clients',
    record: ['billable_client', 'billable_clients'],
    verbs: ['list'],
    about: 'Clients with unbilled work.',
    fields: 'id,name,unbilled_hours,unbilled_amount,amount_in_trust,billable_matters_count',
    order: null,
    filters: billableFilters('clients'),
    text: {
      list: 'Lists clients with unbilled time and expenses, with their unbilled hours and amounts when asked for — the start of a billing run.',
    },
  },
  {
    key: 'billable_matters',
    path: '/billable_matters',
    clio: '/billable_matters',
    record: ['billable_matter', 'billable_matters'],
    verbs: ['list'],
    about: 'Matters with unbilled work.',
    fields: 'id,display_number,unbilled_hours,unbilled_amount,amount_in_trust,currency_code',
    order: null,
    filters: billableFilters('matters'),
    text: {
      list: 'Lists matters with unbilled time and expenses, with their unbilled hours and amounts when asked for; list_billable_matter_ids gives just the ids.',
    },
  },
  {
    key: 'billable_matter_ids',
    path: '/billable_matters/ids',
    clio: '/billable_matters/ids',
    record: ['billable_matter_id', 'billable_matter_ids'],
    verbs: ['list'],
    about: 'The ids of the matters with unbilled work.',
    fields: 'id',
    order: null,
    filters: billableFilters('matters'),
    text: {
      list: 'Lists only the ids of the matters with unbilled work, under the same filters as list_billable_matters — cheap for selecting all billable matters.',
    },
  },
  {
    key: 'clio_payments_links',
    path: '/clio_payments/links',
    clio: '/clio_payments/links',
    record: ['clio_payments_link', 'clio_payments_links'],
    verbs: ['create', 'get'],
    about: 'Clio Payments links clients use to pay online.',
    fields: 'id,url,amount,currency,description,expires_at,active',
    body: {
      subject: Obj(
        'What is paid, as { "id": <id>, "type": "Bill" | "Contact" | "BankAccount" }: a bill, a contact’s outstanding bills, or a direct payment into a bank account.',
      ),
      destination_account: Obj('The bank account the money goes to, as { "id": <bank account id> } (ids from list_bank_accounts).'),
      destination_contact: Obj('The contact paying a direct payment, as { "id": <contact id> }.'),
      currency: Str('Currency code of the payment (e.g. USD).'),
      amount: Num('Amount to pay; without it the payer enters it.'),
      description: Str('Short description of a direct payment.'),
      duration: Id({ description: 'How long the link works, in seconds (at most 7776000, 90 days).' }),
      email_address: Str('Email address pre-filled for the payer.'),
      is_allocated_as_revenue: Bool('Record a direct payment as revenue.'),
    },
    required: ['subject', 'destination_account', 'currency', 'description', 'duration'],
    text: {
      create:
        'Creates a Clio Payments link to send to a client: subject (the bill, contact or bank account paid), destination_account, currency, description and duration are required; ask for url in fields.',
      get: 'Returns one Clio Payments link; the id comes from list_clio_payments_links or create_clio_payments_link.',
    },
  },
  {
    key: 'clio_payments_links',
    path: '/clio_payments/links',
    clio: '/clio_payments/links',
    record: ['clio_payments_link', 'clio_payments_links'],
    verbs: ['update'],
    about: 'Clio Payments links clients use to pay online.',
    fields: 'id,url,expires_at,active',
    body: { expired: Bool('true ends the link now, so it can no longer be used.') },
    text: {
      update: 'Expires a Clio Payments link (id from list_clio_payments_links) with expired=true.',
    },
  },
  {
    key: 'clio_payments_payments',
    path: '/clio_payments/payments',
    clio: '/clio_payments/payments',
    record: ['clio_payments_payment', 'clio_payments_payments'],
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
    text: {
      list: 'Lists payments received online through Clio Payments, by bill, contact or state.',
      get: 'Returns one Clio Payments payment; the id comes from list_clio_payments_payments.',
    },
  },
  {
    key: 'custom_actions',
    path: '/custom_actions',
    clio: '/custom_actions',
    record: ['custom_action', 'custom_actions'],
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'Links an app adds to Clio’s pages (matters, contacts, documents, activities, folders).',
    fields: 'id,label,target_url,ui_reference',
    order: null,
    body: {
      label: Str('Text of the link.'),
      target_url: Str('URL opened in a new tab when the link is clicked.'),
      ui_reference: StringEnum(['activities/show', 'documents/show', 'contacts/show', 'matters/show', 'folders/show'], {
        description: 'The Clio page that shows the link.',
      }),
    },
    required: ['label', 'target_url', 'ui_reference'],
    text: {
      list: 'Lists the custom actions (links this app added to Clio’s matter, contact, document, activity or folder pages).',
      get: 'Returns one custom action; the id comes from list_custom_actions.',
      create: 'Adds a link to a Clio page: label, target_url and ui_reference (the page, e.g. matters/show) are required.',
      update: 'Changes a custom action’s label, URL or page (id from list_custom_actions).',
      delete: 'Removes a custom action (id from list_custom_actions). Answers 204 with no body.',
    },
  },
  {
    key: 'damages',
    path: '/damages',
    clio: '/damages',
    record: ['damage', 'damages'],
    verbs: ['list', 'get', 'create', 'delete'],
    about: 'Damages claimed on a matter (personal injury and similar).',
    fields: 'id,amount,damage_type,description,created_at',
    order: null,
    body: {
      matter_id: Id({ description: 'Matter the damage is claimed on.' }),
      amount: Num('Amount.'),
      damage_type: StringEnum(['special', 'general', 'other'], { description: 'Special, general or other damages.' }),
      description: Str('What the damage is.'),
    },
    required: ['matter_id', 'amount', 'damage_type', 'description'],
    text: {
      list: 'Lists damages (amounts claimed, by type) recorded on matters.',
      get: 'Returns one damage; the id comes from list_damages.',
      create: 'Records a damage on a matter: matter_id, amount, damage_type (special, general, other) and description are required.',
      delete: 'Deletes a damage (id from list_damages). Answers 204 with no body.',
    },
  },
  {
    key: 'damages',
    path: '/damages',
    clio: '/damages',
    record: ['damage', 'damages'],
    verbs: ['update'],
    about: 'Damages claimed on a matter.',
    fields: 'id,amount,damage_type,description',
    body: {
      amount: Num('Amount.'),
      damage_type: StringEnum(['special', 'general', 'other'], { description: 'Special, general or other damages.' }),
      description: Str('What the damage is.'),
    },
    text: { update: 'Changes a damage’s amount, type or description (id from list_damages); it stays on its matter.' },
  },
];
