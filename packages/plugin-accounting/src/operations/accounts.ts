import { defineFind } from './kit/find.js';

// The chart of accounts and what is entered straight into its accounts: journal entries (and the journal codes French
// companies file them under), bank deposits and transfers; and the budgets set per account.

export const findAccounts = defineFind({
  name: 'find_accounts',
  path: '/accounts',
  entity: 'Account',
  plural: 'accounts of the chart of accounts',
  about:
    'Searches the chart of accounts: each account has Name, FullyQualifiedName, AccountType (Bank, Income, Expense…), ' +
    'AccountSubType, Classification, CurrentBalance and Active. Account ids are what report filters (account) take.',
  where: "AccountType = 'Bank' AND Active = true",
});

export const findBudgets = defineFind({
  name: 'find_budgets',
  path: '/budgets',
  entity: 'Budget',
  plural: 'budgets',
  about: 'Searches budgets: Name, StartDate, EndDate, BudgetType and BudgetEntryType, with one amount per account and period.',
  where: 'Active = true',
});

export const findJournalEntries = defineFind({
  name: 'find_journal_entries',
  path: '/journal-entries',
  entity: 'JournalEntry',
  plural: 'journal entries',
  about: 'Searches journal entries: DocNumber, TxnDate, Adjustment and their debit and credit lines by account.',
  where: "TxnDate >= '2025-01-01' AND TxnDate <= '2025-03-31'",
});

export const findJournalCodes = defineFind({
  name: 'find_journal_codes',
  path: '/journal-codes',
  entity: 'JournalCode',
  plural: 'journal codes',
  about: 'Searches journal codes (France-based companies only): Name, Type (Expenses, Sales, Bank, Nouveaux, Wages, Cash, Others), Active.',
  where: 'Active = true',
});

export const findDeposits = defineFind({
  name: 'find_deposits',
  path: '/deposits',
  entity: 'Deposit',
  plural: 'bank deposits',
  about: 'Searches bank deposits: DepositToAccountRef, TxnDate, TotalAmt and the payments or other funds they group.',
  where: "TxnDate >= '2025-01-01' ORDERBY TxnDate DESC",
});

export const findTransfers = defineFind({
  name: 'find_transfers',
  path: '/transfers',
  entity: 'Transfer',
  plural: 'transfers between accounts',
  about: 'Searches transfers of money between two balance-sheet accounts: FromAccountRef, ToAccountRef, Amount, TxnDate.',
  where: "TxnDate >= '2025-01-01'",
});
