import { StringEnum } from '@portico/core';
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
      list: 'Lists the firm’s bank accounts (operating and trust) with their balances when asked for.',
      get: 'Returns one bank account (operating or trust); the id comes from list_bank_accounts. Ask for balance in fields for its balance.',
      create: 'Creates a bank account; currency and type (Operating or Trust) are required.',
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
    key: 'trust_requests',
    path: '/trust_requests',
    clio: '/trust_requests',
    record: ['trust_request', 'trust_requests'],
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
        'Requests trust funds from a client: client_id, trust_type, trust_amount, issue_date, due_date and approved are required; matter lists the matters it is for.',
    },
  },
]);
