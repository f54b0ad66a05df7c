import { defineVocabulary } from '@portico/core/plugin';

/** QuickBooks' words, as a bookkeeper uses them: what search_methods reads a query with. */
export const quickBooksVocabulary = defineVocabulary({
  names: ['QuickBooks', 'QBO', 'Quick Books', 'Intuit'],
  cues: [
    'a/r aging',
    'ar aging',
    'a/p aging',
    'ap aging',
    'profit and loss',
    'balance sheet',
    'trial balance',
    'chart of accounts',
    'general ledger',
    'vendor bill',
    'purchase order',
    'sales receipt',
    'journal entry',
    'journal entries',
    'vendor credit',
    'undeposited funds',
    'transaction detail by account',
  ],
  kinds: ['books', 'bookkeeping', 'bookkeeper', 'accountant', 'ledger'],
  synonyms: {
    customer: ['client'],
    company: ['organization', 'organisation', 'business', 'insurer', 'insurance', 'corporation'],
    vendor: ['supplier', 'payee', 'contractor', 'landlord', 'utility', 'utilities'],
    attorney: ['lawyer', 'solicitor'],
    employee: ['payroll', 'salaried'],
    activity: ['time', 'hour', 'minute', 'expense', 'timesheet', 'timekeeping', 'cost', 'disbursement', 'unbilled'],
    rate: ['hourly', 'price', 'charge'],
    bill: ['invoice', 'billed', 'unbilled', 'owe', 'owed', 'owing'],
    invoice: ['bill', 'unpaid', 'billed'],
    balance: ['owe', 'owed', 'owing', 'outstanding', 'receivable', 'unpaid'],
    receivable: ['owe', 'owed', 'owing', 'late'],
    payable: ['supplier'],
    aged: ['aging', 'ageing', 'overdue', 'late', 'age'],
    payment: ['paid', 'pay', 'card', 'online'],
    transaction: ['ledger', 'deposit', 'withdrawal'],
    bank: ['trust', 'iolta', 'checking', 'operating'],
    sale: ['revenue', 'turnover', 'income'],
    profit: ['profitable', 'income', 'earn', 'earned'],
    expense: ['spend', 'spent', 'spending', 'cost', 'mileage', 'postage', 'courier', 'photocopy', 'photocopies', 'rent'],
    purchase: ['check', 'cheque', 'card', 'expense', 'spent'],
    estimate: ['quote'],
    credit: ['refund', 'writeoff', 'discount'],
    term: ['net'],
    department: ['location', 'office'],
    class: ['group'],
    item: ['product', 'service', 'charge'],
    line: ['charge'],
    time: ['hour', 'minute', 'timesheet'],
    entry: ['hearing', 'appointment', 'deposition', 'meeting', 'consultation', 'trial', 'mediation', 'court', 'date', 'timesheet'],
    recording: ['listen', 'audio', 'play'],
    grant: ['funding', 'funded', 'grantor'],
  },
  phrases: {
    'time entry': 'activity time',
    'time entries': 'activity time',
    'billing rate': 'activity rate',
    'trust account': 'bank account',
    'trust ledger': 'bank transaction',
    'in trust': 'bank transaction',
    'accounts receivable': 'receivable balance',
    'past due': 'overdue aged',
    'profit and loss': 'profit loss',
    'income statement': 'profit loss',
    'cash flow': 'cash flow',
    'general ledger': 'general ledger',
    // Accountants write the general ledger as GL ("GL detail").
    gl: 'general ledger',
    'chart of accounts': 'account',
    'line item': 'line item',
    'credit note': 'credit memo',
    'write (off|down)': 'credit',
    '(did|do|does|have|has) (we|i|the firm) (make|made|earn)': 'profit income',
    'sales tax': 'tax',
    // QuickBooks' help pages: undeposited funds is an account; a card or bank account has a balance.
    'undeposited funds': 'account balance',
    'balances? (of|on|in) (the |our |my )?([a-z-]+ ){0,3}(account|card|checking|savings)': 'account',
    'net (income|profit|loss)': 'profit loss',
    // Clients who have not paid for a while are the A/R aging.
    // "what have we paid Regus", "how much did we spend": the firm's spending, by vendor.
    '(have|did|do) we (paid|pay|spent|spend)|we (have )?(paid|spent)': 'vendor expense',
    // "how much have we billed for consulting services": sales by product or service.
    '(billed|sold|earned|made|revenue|income|sales) ([a-z]+ ){0,3}(for|from|on|of|in) ([a-z-]+ ){0,3}(services?|products?)': 'sale item',
    '(transaction|line|invoice) by (transaction|line|invoice)': 'detail transaction list',
    '(?<!\\b(we|i) )(have|has) not paid|(over|more than|past) [0-9]+ days': 'aged receivable',
    // What the firm has not paid yet is what it owes its vendors: their unpaid bills, the A/P.
    '(we|i|the firm) (have|has|did|do) not (yet )?(paid|pay)|bills? (to pay|due to vendors?)|pay (the |our )?bills':
      'unpaid vendor bill payable',
    // QuickBooks' help pages: a payment the firm makes on a vendor's bill is a bill payment.
    '(we|i|the firm) (have )?(paid|pay|pays)( [a-z$0-9,.-]+){0,5} (on|for|against|toward|towards) ([a-z-]+ ){0,2}bills?|bill ?payments?':
      'bill payment',
    // Money moved between the firm's own accounts is a transfer ("from savings to checking").
    '(move|moved|moving|transfer|transferred|shift|shifted|sweep|swept|put)( [a-z$0-9,.-]+){0,4} from (the |our )?([a-z-]+ ){0,2}(savings|checking|operating|trust|account|bank|card|reserve)( account)? (in)?to':
      'transfer account',
    // QuickBooks' help pages: the fiscal year is a company setting, in company info and preferences.
    '(fiscal|financial|accounting) years?': 'company info fiscal year preferences',
    // A client's invoices and payments together are its transaction history, the Transaction List by Customer.
    '(invoiced|billed|charged|invoices?|bills?) ([a-z-]+ ){0,5}(and|or|vs|versus|against) ([a-z-]+ ){0,5}(paid|payments?)':
      'customer transaction history',
    // "what did we bring in": the firm's income.
    '(bring|brings|brought|bringing) in': 'income sale',
    // Postings to an account are the lines of its general ledger.
    'postings? (to|in|on|against) (the |our |an? )?([a-z-]+ ){0,2}(accounts?|ledger)': 'general ledger detail',
    // A law firm's usual vendors.
    '(court reporters?|process servers?|process serving)': 'vendor',
    // QuickBooks' report names.
    'transaction detail by account': 'general ledger detail',
    // What changed in the books since a date is its change data capture.
    '(what|which records?|anything) (has |have )?(changed|been (changed|modified|updated)) in (the |our )?(books|accounting|quickbooks|qbo)':
      'change data capture',
  },
});
