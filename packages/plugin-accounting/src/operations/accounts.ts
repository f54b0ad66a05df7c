import { defineFind } from './kit/find.js';

// The chart of accounts and what is entered straight into its accounts: journal entries (and the journal codes French
// companies file them under), bank deposits and transfers; and the budgets set per account.

export const findAccounts = defineFind({
  name: 'find_accounts',
  path: '/accounts',
  entity: 'Account',
  summary: 'Find accounts of the chart of accounts and their balances, such as checking',
  about:
    "Finds the accounts of the chart of accounts (bank, income, expense, credit card, liability…) with Name, FullyQualifiedName, AccountType, AccountSubType, Classification, CurrentBalance and Active. Their ids are the reports' account filter; an account's postings over a period are in report_general_ledger_detail.",
  where: "AccountType = 'Bank' AND Active = true",
});

export const findBudgets = defineFind({
  name: 'find_budgets',
  path: '/budgets',
  entity: 'Budget',
  summary: 'Find budgets planned per account and period',
  about:
    'Finds budgets with Name, StartDate, EndDate, BudgetType and BudgetEntryType, each holding one planned amount per account and period.',
  where: 'Active = true',
});

export const findJournalEntries = defineFind({
  name: 'find_journal_entries',
  path: '/journal-entries',
  entity: 'JournalEntry',
  summary: 'Find journal entries posted to the books',
  about:
    'Finds journal entries, the manual debit and credit postings an accountant makes (adjustments, corrections, year-end entries), with DocNumber, TxnDate, Adjustment and their lines by account.',
  where: "TxnDate >= '2025-01-01' AND TxnDate <= '2025-03-31'",
});

export const findJournalCodes = defineFind({
  name: 'find_journal_codes',
  path: '/journal-codes',
  entity: 'JournalCode',
  summary: 'Find journal codes of France-based companies',
  about:
    'Finds journal codes, which only France-based companies use to file transactions, with Name, Type (Expenses, Sales, Bank, Nouveaux, Wages, Cash, Others) and Active.',
  where: 'Active = true',
});

export const findDeposits = defineFind({
  name: 'find_deposits',
  path: '/deposits',
  entity: 'Deposit',
  summary: 'Find bank deposits and the payments each one groups',
  about:
    'Finds bank deposits, the money put into a bank account (client payments banked together, other funds), with DepositToAccountRef, TxnDate, TotalAmt and the lines they group.',
  where: "TxnDate >= '2025-01-01' ORDERBY TxnDate DESC",
});

export const findTransfers = defineFind({
  name: 'find_transfers',
  path: '/transfers',
  entity: 'Transfer',
  summary: "Find transfers of money between the firm's accounts",
  about:
    'Finds transfers, money moved between two balance-sheet accounts (from savings to the operating account, say), with FromAccountRef, ToAccountRef, Amount and TxnDate.',
  where: "TxnDate >= '2025-01-01'",
});
