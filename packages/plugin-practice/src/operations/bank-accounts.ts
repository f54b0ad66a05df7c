import { StringEnum } from '@portico/core/plugin';
import { Bool, Day, Flag, IdFilter, Int, List, Num, notNull, nullable, Ref, Text } from '../schemas.js';
import { family, pick } from './kit/rows.js';

// Bank accounts: the firm's operating and trust accounts, the money in and out of them (transactions, transfers
// between accounts) and the requests to clients to fund their trust account.

const bankAccountBody = {
  currency: Text('Currency code of the account (e.g. USD).'),
  type: StringEnum(['Operating', 'Trust'], { description: 'Operating or Trust account.' }),
  account_number: Text('Account number.'),
  domicile_branch: Text('Domicile branch.'),
  general_ledger_number: Text('General ledger number.'),
  holder: Text('Account holder.'),
  institution: Text('Bank.'),
  name: Text('Name shown in Clio.'),
  swift: Text('SWIFT code.'),
  transit_number: Text('Transit (routing) number.'),
  balance: Num('Opening balance.'),
  client: Ref('client contact (controlled trust accounts)'),
  matter: Ref('matter (controlled trust accounts)'),
  controlled_account: Bool('A controlled trust account for one client or matter.'),
  default_account: Bool('Make it the default account of its type.'),
};

export const bankAccounts = family([
  {
    key: 'bank_accounts',
    path: '/bank_accounts',
    clio: '/bank_accounts',
    record: ['bank_account', 'bank_accounts'],
    summaries: {
      list: 'List the firm’s trust and operating bank accounts with balances',
      get: 'Get a trust or operating bank account and its balance',
      create: 'Add a trust or operating bank account',
      update: 'Change the details of a bank account',
      delete: 'Delete a bank account',
    },
    verbs: ['list', 'get', 'create', 'update', 'delete'],
    about: 'The firm’s operating and trust bank accounts.',
    fields: 'id,name,type,currency,balance,institution,default_account',
    fieldsBy: {
      get: 'id,name,type,currency,balance,institution,account_number,default_account',
      update: 'id,name,type,currency,balance,institution,account_number,default_account',
    },
    order: 'id(asc)',
    filters: {
      show_empty_accounts: Flag('Include accounts with a zero balance (true) or only those with money (false).'),
      status: Text('Account status.'),
      type: StringEnum(['OperatingAccount', 'TrustAccount'], { description: 'Operating or trust accounts.' }),
      user_id: IdFilter('Only accounts of this user.', nullable),
    },
    body: bankAccountBody,
    // Its type and balance stay as created; a controlled account's client and matter too.
    updateBody: pick(
      bankAccountBody,
      'name',
      'currency',
      'account_number',
      'domicile_branch',
      'general_ledger_number',
      'holder',
      'institution',
      'swift',
      'transit_number',
      'controlled_account',
      'default_account',
    ),
    required: ['currency', 'type'],
    text: {
      list: 'Lists the firm’s bank accounts — trust (IOLTA, client funds) and operating accounts — with their balances when balance is in fields. Filter by type (TrustAccount or OperatingAccount) or show_empty_accounts; the money moving in and out is in list_bank_transactions.',
      get: 'Returns one trust or operating bank account with its bank, numbers and balance (ask for balance in fields). The id comes from list_bank_accounts.',
      create:
        'Adds a bank account to the firm’s books, trust or operating; currency and type (Operating or Trust) are required, controlled_account with client or matter makes a trust account for one client.',
      update:
        'Changes a bank account’s details (id from list_bank_accounts): name, bank, numbers, whether it is the default. Its type and balance stay as created.',
      delete:
        'Deletes a bank account (id from list_bank_accounts); accounts with transactions cannot be deleted. Answers 204 with no body.',
    },
  },
  {
    key: 'bank_transactions',
    path: '/bank_transactions',
    clio: '/bank_transactions',
    record: ['bank_transaction', 'bank_transactions'],
    summaries: {
      list: 'List trust and operating account transactions (client trust ledger)',
      get: 'Get a bank transaction (deposit, withdrawal or transfer)',
      create: 'Record a deposit or withdrawal in a bank account',
      update: 'Update a bank transaction entered by hand',
      delete: 'Delete a bank transaction',
    },
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
      date: Day('Date of the transaction'),
      amount: Num('Amount; positive for money in, negative for money out.'),
      description: Text('What the transaction is for, as it appears in the ledger.'),
      source: Text('Where the money came from or went to (a payer, a payee, a cheque).'),
      confirmation: Text('Confirmation or reference number (a cheque number, a wire reference).'),
      transaction_type: Text('Kind of transaction as Clio names it (e.g. Deposit, Withdrawal).'),
      exchange_rate: Num('Exchange rate to the account’s currency, for a transaction in another currency.'),
    },
    required: ['bank_account_id', 'date', 'amount'],
    text: {
      list: 'Lists bank transactions — deposits, withdrawals, payments and transfers in the trust and operating accounts — which make up a client’s trust ledger. Filter by bank_account_id (from list_bank_accounts), client_id, matter_id or type; client_id with type=liability gives one client’s trust ledger.',
      get: 'Returns one bank transaction (a deposit, withdrawal or transfer) with its date, amount, description and account; the id comes from list_bank_transactions.',
      create:
        'Records money in or out of a bank account by hand, such as a trust deposit from a client; bank_account_id (from list_bank_accounts), date and amount are required, a negative amount for money out.',
      update: 'Corrects a bank transaction recorded by hand (id from list_bank_transactions): its date, amount, description or reference.',
      delete:
        'Deletes a bank transaction (id from list_bank_transactions); Clio refuses transactions tied to bills or reconciled statements. Answers 204 with no body.',
    },
  },
  {
    key: 'bank_transfers',
    path: '/bank_transfers',
    clio: '/bank_transfers',
    record: ['bank_transfer', 'bank_transfers'],
    summaries: {
      get: 'Get a transfer between bank accounts, such as trust to operating',
    },
    verbs: ['get'],
    about: 'Transfers between the firm’s bank accounts.',
    fields: 'id,amount,date,description,primary_authorizer,created_at',
    text: {
      get: 'Returns one transfer of money between the firm’s bank accounts, for example from trust to operating to pay a bill. The id is the source of a transfer transaction in list_bank_transactions.',
    },
  },
  {
    key: 'trust_requests',
    path: '/trust_requests',
    clio: '/trust_requests',
    record: ['trust_request', 'trust_requests'],
    summaries: {
      create: 'Request a trust deposit (retainer) from a client',
    },
    verbs: ['create'],
    about: 'Requests to clients to fund their trust account.',
    fields: 'id,trust_amount,issue_date,due_date',
    body: {
      approved: Bool('Whether the request is approved.'),
      client_id: Int('The client asked for funds (a contact).'),
      currency_id: Int('Currency (ids from list_currencies).'),
      due_date: Day('Due date'),
      issue_date: Day('Issue date'),
      matter: List('Matter, as [{ "id": <id>, "trust_amount": <integer>, "note": <string> }].'),
      note: Text('Note.'),
      trust_amount: Num('Amount requested.'),
      trust_type: StringEnum(['client', 'matter'], { description: 'Trust type.' }),
    },
    required: ['trust_type', 'client_id', 'issue_date', 'due_date', 'approved', 'trust_amount'],
    text: {
      create:
        'Sends a client a request to fund their trust account (a retainer or evergreen top-up); client_id, trust_type, trust_amount, issue_date, due_date and approved are required, and matter names the matters it is for. To bill work already done, use the bills operations instead.',
    },
  },
]);
