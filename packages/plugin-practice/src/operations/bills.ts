import { defineOperation, IntegerString, Params, StringEnum } from '@portico/core/plugin';
import { Bool, ClioId, Day, Flag, IdFilter, Ids, Int, Num, notNull, nullable, Obj, Ref, Text } from '../schemas.js';
import { family } from './kit/rows.js';

// Bills: the invoices issued to clients, their lines (time, expenses, trust funds applied, interest), the themes they
// are printed with, the work not billed yet (billable clients and matters), and what was paid against them
// (allocations of payments and credit memos, outstanding balances).

const BILL_STATES = ['draft', 'awaiting_approval', 'awaiting_payment', 'paid', 'void', 'deleted'] as const;

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

export const previewBill = defineOperation({
  name: 'preview_bill',
  method: 'GET',
  path: '/bills/:id/preview',
  summary: 'Preview a client bill (invoice) as it prints, in HTML',
  description:
    'Returns a client bill (invoice) rendered as Clio prints it, as an HTML document (a string), for showing or checking it before it is sent. The id comes from list_bills; for the bill’s figures as data use get_bill.',
  params: Params({ id: ClioId('Id of the bill (from list_bills).') }),
  upstream: (p) => ({ method: 'GET', path: `/bills/${encodeURIComponent(p.id)}/preview.json` }),
});

export const bills = family(
  [
    {
      key: 'bills',
      path: '/bills',
      clio: '/bills',
      record: ['bill', 'bills'],
      summaries: {
        list: 'List client bills (invoices), such as unpaid or overdue ones',
        get: 'Get a client bill (invoice) with its totals, by its id',
        update: 'Change or approve a client bill (invoice)',
        delete: 'Delete a draft bill or void an issued one',
      },
      verbs: ['list', 'get', 'update', 'delete'],
      about: 'Bills (invoices) issued to clients.',
      fields: 'id,number,state,issued_at,due_at,total,balance,client{id,name},matters{id,display_number}',
      order: 'id(asc)',
      filters: {
        client_id: IdFilter('Only bills of this client contact.', notNull),
        currency_id: IdFilter('Only bills in this currency (ids from list_currencies).', notNull),
        due_after: Day('Only bills due after this date'),
        due_at: Day('Only bills due on this date'),
        due_before: Day('Only bills due before this date'),
        issued_after: Day('Only bills issued after this date'),
        issued_before: Day('Only bills issued before this date'),
        last_sent_start_date: Day('Only bills last sent after this date'),
        last_sent_end_date: Day('Only bills last sent before this date'),
        matter_id: IdFilter('Only bills of this matter.', nullable),
        originating_attorney_id: IdFilter('Only bills whose originating attorney is this user.', nullable),
        responsible_attorney_id: IdFilter('Only bills whose responsible attorney is this user.', nullable),
        overdue_only: Flag('Only overdue bills.'),
        query: Text('Match on the invoice number.'),
        state: StringEnum(BILL_STATES, { description: 'Only bills in this state.' }),
        status: StringEnum(['all', 'overdue'], { description: 'Payment status.' }),
        type: StringEnum(['revenue', 'trust'], { description: 'Revenue or trust bills.' }),
      },
      getParams: {
        'navigation.next': IdFilter('Id of the next bill available for viewing, as Clio’s document lists it for this request.', notNull),
        'navigation.previous': IdFilter('Id of the previous bill available for viewing, as Clio’s document lists it.', notNull),
      },
      body: {
        bill_theme: Ref('bill theme'),
        discount: Obj('Discount, as { "rate": <number>, "type": "percentage" | "fixed", "note": "…" }.'),
        interest: Obj('Interest, as { "rate": <number>, "type": "…", "period": <days> }.'),
        state: StringEnum(BILL_STATES, { description: 'New state (draft → awaiting_approval → awaiting_payment …).' }),
        currency_id: Int('Currency (ids from list_currencies).'),
        secondary_tax_rate: Num('Secondary tax rate, percent.'),
        tax_rate: Num('Tax rate, percent.'),
        due_at: Day('Due date'),
        issued_at: Day('Issue date'),
        memo: Text('Memo printed on the bill.'),
        number: Text('Bill number.'),
        purchase_order: Text('Purchase order number.'),
        subject: Text('Subject line.'),
        use_grace_period: Bool('Apply the grace period before interest.'),
      },
      text: {
        list: 'Lists the bills (invoices) the firm issued to clients, with their number, state, total, balance due and dates. Filter by client_id, matter_id, state (draft, awaiting_approval, awaiting_payment, paid), status, overdue_only, issued_after/issued_before, due_after/due_before or query (the invoice number); for what clients owe in total use list_outstanding_client_balances, for matters not yet billed list_billable_matters.',
        get: 'Returns one client bill (invoice) with its number, state, total, balance due and dates; the id comes from list_bills. Ask for navigation{next,previous} in fields to get the ids of the next and previous bill available for viewing.',
        update:
          'Changes a bill (id from list_bills): its dates, memo, discount, interest, taxes, theme, or its state, to approve a draft for sending (draft → awaiting_approval → awaiting_payment).',
        delete:
          'Deletes or voids a bill (id from list_bills), as Clio decides from its state: a draft or pending-approval bill is deleted, an unpaid issued bill is voided. Only bills without recorded payments qualify. Answers 204 with no body.',
      },
    },
    {
      key: 'line_items',
      path: '/line_items',
      clio: '/line_items',
      record: ['line_item', 'line_items'],
      summaries: {
        list: 'List the line items (charges) on a bill',
        update: 'Change a line item (charge) on a draft bill',
        delete: 'Remove a line item (charge) from a draft bill',
      },
      verbs: ['list', 'update', 'delete'],
      about: 'The lines of bills: time, expense and other entries billed.',
      fields: 'id,date,kind,description,quantity,price,total,bill{id,number},matter{id,display_number}',
      order: null,
      filters: {
        activity_id: IdFilter('Only the lines of this activity (ids from list_activities).', nullable),
        bill_id: IdFilter('Only the lines of this bill (ids from list_bills).', notNull),
        display: Flag('Only the lines shown on the bill (true) or the hidden ones (false).'),
        'exclude_ids[]': Ids('Leave out the line items with these ids (repeat exclude_ids[] in a query string).'),
        group_ordering: IntegerString({ description: 'Only lines in this position of the bill’s grouping.' }),
        kind: Text('Only lines of this kind (Service, Expense, Product).'),
        matter_id: IdFilter('Only line items of this matter.', nullable),
        query: Text('Wildcard search in description or note.'),
      },
      body: {
        activity: Ref('activity'),
        bill: Ref('bill'),
        date: Day('Date of the line'),
        description: Text('Text of the line.'),
        discount: Obj('Discount, as { "rate": <number>, "type": <boolean> }.'),
        group_ordering: Int('Position of the line in its group on the bill.'),
        kind: StringEnum(['Expense', 'Service', 'Product'], { description: 'Service, Expense or Product.' }),
        matter: Ref('matter'),
        note: Text('Note on the line.'),
        price: Num('Rate or amount of the line.'),
        quantity: Num('Quantity (hours for time, units for expenses).'),
        secondary_taxable: Bool('Apply the secondary tax.'),
        taxable: Bool('Apply the primary tax.'),
        update_original_record: Bool('Also change the activity the line comes from.'),
      },
      text: {
        list: 'Lists bill line items, the charges for time entries, expenses and flat fees that make up a bill, usually of one bill (bill_id from list_bills) or matter_id. display=true keeps the lines shown on the bill; trust funds applied on a bill are list_trust_line_items.',
        update:
          'Changes a charge on a bill that is still a draft (id from list_line_items): description, quantity, price, discount; update_original_record=true changes the time entry or expense behind it too.',
        delete:
          'Removes a charge from a bill that is still a draft (id from list_line_items); issued bills keep their lines. Answers 204 with no body.',
      },
    },
    {
      key: 'trust_line_items',
      path: '/trust_line_items',
      clio: '/trust_line_items',
      record: ['trust_line_item', 'trust_line_items'],
      summaries: {
        list: 'List trust funds applied to bills (trust line items)',
        update: 'Change the trust funds applied on a draft bill',
      },
      verbs: ['list', 'update'],
      about: 'Trust lines of bills (trust funds applied to a bill).',
      fields: 'id,date,note,total,bill{id,number},matter{id,display_number}',
      order: 'id(asc)',
      filters: {
        bill_id: IdFilter('Only trust line items of this bill.', notNull),
        matter_id: IdFilter('Only trust line items of this matter.', nullable),
      },
      body: {
        date: Day('Date'),
        note: Text('Note.'),
        total: Num('Total.'),
      },
      text: {
        list: 'Lists trust line items, the trust funds (retainer money) applied to pay bills, by bill_id or matter_id. The charges on a bill are list_line_items; the trust account ledger is list_bank_transactions.',
        update:
          'Changes a trust line item of a draft bill (id from list_trust_line_items): the date, note or total of trust money applied to it.',
      },
    },
    {
      key: 'interest_charges',
      path: '/interest_charges',
      clio: '/interest_charges',
      record: ['interest_charge', 'interest_charges'],
      summaries: {
        list: 'List interest charged on overdue bills',
        delete: 'Remove an interest charge from a bill',
      },
      verbs: ['list', 'delete'],
      about: 'Interest charged on overdue bills.',
      fields: 'id,date,description,total,bill{id,number}',
      order: null,
      filters: {
        bill_id: IdFilter('Only interest charges of this bill.', notNull),
        'exclude_ids[]': Ids('Leave out the interest charges with these ids (repeat exclude_ids[] in a query string).'),
      },
      text: {
        list: 'Lists interest charges, the late interest added to overdue bills, usually of one bill (bill_id from list_bills). exclude_ids[] leaves some out.',
        delete:
          'Deletes an interest charge from a bill (id from list_interest_charges), waiving that late interest. Answers 204 with no body.',
      },
    },
    {
      key: 'bill_themes',
      path: '/bill_themes',
      clio: '/bill_themes',
      record: ['bill_theme', 'bill_themes'],
      summaries: {
        list: 'List bill themes (invoice layouts and designs)',
        update: 'Change a bill theme (invoice layout)',
      },
      verbs: ['list', 'update'],
      about: 'Layouts of printed bills.',
      fields: 'id,name,default,config',
      order: null,
      body: {
        name: Text('Name of the theme.'),
        config: Text(
          'The theme’s settings as a JSON string with "show", "text" and "css" sections (which parts of the bill appear, their wording, their styles).',
        ),
      },
      text: {
        list: 'Lists the bill themes, the layouts and designs of printed invoices (logo, columns, wording). Their ids go into update_bill’s bill_theme.',
        update:
          'Renames a bill theme or changes its config (id from list_bill_themes); bills using the theme follow unless they override it.',
      },
    },
    {
      key: 'billable_clients',
      path: '/billable_clients',
      clio: '/billable_clients',
      record: ['billable_client', 'billable_clients'],
      summaries: {
        list: 'List clients with unbilled time and expenses, ready to bill',
      },
      verbs: ['list'],
      about: 'Clients with unbilled work.',
      fields: 'id,name,unbilled_hours,unbilled_amount,amount_in_trust,billable_matters_count',
      order: null,
      filters: billableFilters('clients'),
      without: ['created_since', 'updated_since', 'ids[]'],
      text: {
        list: 'Lists the clients who have unbilled time entries and expenses, with their unbilled hours and amounts when asked for: the start of a billing run. Filter by client_id, matter_id, responsible_attorney_id, start_date/end_date or query; per matter, use list_billable_matters.',
      },
    },
    {
      key: 'billable_matters',
      path: '/billable_matters',
      clio: '/billable_matters',
      record: ['billable_matter', 'billable_matters'],
      summaries: {
        list: 'List matters with unbilled time and expenses, ready to bill',
      },
      verbs: ['list'],
      about: 'Matters with unbilled work.',
      fields: 'id,display_number,unbilled_hours,unbilled_amount,amount_in_trust,currency_code',
      order: null,
      filters: billableFilters('matters'),
      without: ['created_since', 'updated_since', 'ids[]'],
      text: {
        list: 'Lists the matters that have unbilled time entries and expenses (work in progress not yet on a bill), with their unbilled hours and amounts when asked for. Filter by client_id, matter_id, originating_attorney_id, responsible_attorney_id, start_date/end_date or query; bills already issued are in list_bills, and list_billable_matter_ids gives just the ids.',
      },
    },
    {
      key: 'billable_matter_ids',
      path: '/billable_matters/ids',
      clio: '/billable_matters/ids',
      record: ['billable_matter_id', 'billable_matter_ids'],
      summaries: {
        list: 'List just the ids of matters with unbilled work',
      },
      verbs: ['list'],
      about: 'The ids of the matters with unbilled work.',
      fields: 'id',
      order: null,
      filters: billableFilters('matters'),
      without: ['created_since', 'updated_since', 'ids[]'],
      text: {
        list: 'Lists only the ids of the matters with unbilled time and expenses, under the same filters as list_billable_matters. Cheap for selecting all billable matters in a billing run.',
      },
    },
    {
      key: 'allocations',
      path: '/allocations',
      clio: '/allocations',
      record: ['allocation', 'allocations'],
      summaries: {
        list: 'List payments and credits applied to bills (allocations)',
        get: 'Get a payment or credit applied to a bill (allocation)',
      },
      verbs: ['list', 'get'],
      about: 'How payments and credit memos are allocated to bills.',
      fields: 'id,date,amount,status,bill{id,number},parent{id,type}',
      order: 'date(asc)',
      filters: {
        bill_id: IdFilter('Only allocations to this bill.', notNull),
        contact_id: IdFilter('Only allocations of this contact.', notNull),
        matter_id: IdFilter('Only allocations on this matter.', notNull),
        parent_id: IdFilter('Only allocations of this payment or credit memo (see parent_type).', notNull),
        parent_type: StringEnum(['CreditMemo', 'Payment'], { description: 'Only allocations of credit memos or of payments.' }),
        status: StringEnum(['invalid', 'valid'], { description: 'invalid: voided allocations; valid: the others.' }),
      },
      text: {
        list: 'Lists allocations, the parts of client payments and credit memos applied to bills: who paid what against which invoice. Filter by bill_id, contact_id, matter_id, parent_id, parent_type (Payment or CreditMemo) or status.',
        get: 'Returns one allocation, the amount of a payment or credit memo applied to a bill; the id comes from list_allocations.',
      },
    },
    {
      key: 'credit_memos',
      path: '/credit_memos',
      clio: '/credit_memos',
      record: ['credit_memo', 'credit_memos'],
      summaries: {
        list: 'List credit memos (credit notes) given to clients',
        get: 'Get a credit memo (credit note) given to a client',
      },
      verbs: ['list', 'get'],
      about: 'Credit memos: credits given to clients and applied to bills.',
      fields: 'id,date,amount,description,contact{id,name}',
      order: 'date(asc)',
      filters: {
        contact_id: IdFilter('Only credit memos of this contact.', notNull),
      },
      text: {
        list: 'Lists credit memos, the credits (credit notes) given to clients and applied to their bills, optionally of one contact_id. How they were applied to bills: list_allocations with parent_type=CreditMemo.',
        get: 'Returns one credit memo (a credit given to a client) with its amount and date; the id comes from list_credit_memos.',
      },
    },
    {
      key: 'outstanding_client_balances',
      path: '/outstanding_client_balances',
      clio: '/outstanding_client_balances',
      record: ['outstanding_client_balance', 'outstanding_client_balances'],
      summaries: {
        list: 'List what each client owes on unpaid bills (accounts receivable)',
      },
      verbs: ['list'],
      about: 'What each client owes on issued bills.',
      fields: 'id,total_outstanding_balance,last_payment_date,contact{id,name}',
      order: null,
      filters: {
        contact_id: IdFilter('Only the balance of this client (a contact).', nullable),
        last_paid_end_date: Day('Only outstanding client balances with last paid date on or before this date'),
        last_paid_start_date: Day('Only outstanding client balances with last paid date on or after this date'),
        newest_bill_due_end_date: Day('Only outstanding client balances with newest bill due date on or before this date'),
        newest_bill_due_start_date: Day('Only outstanding client balances with newest bill due date on or after this date'),
        originating_attorney_id: IdFilter('Only outstanding client balances of this originating attorney.', notNull),
        responsible_attorney_id: IdFilter('Only outstanding client balances of this responsible attorney.', notNull),
      },
      without: ['created_since', 'updated_since', 'ids[]'],
      text: {
        list: 'Lists the outstanding balances of clients, the total each client owes on unpaid issued bills (accounts receivable). Filter by contact_id, originating_attorney_id, responsible_attorney_id, last_paid_start_date/last_paid_end_date or newest_bill_due_start_date/newest_bill_due_end_date; for the bills themselves use list_bills with overdue_only.',
      },
    },
  ],
  previewBill,
);
