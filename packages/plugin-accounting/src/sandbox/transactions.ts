import type { Entities } from './company.js';
import { purchases } from './purchases.js';
import { sales } from './sales.js';
import { bookHelpers, type Lists } from './txn-kit.js';

export { round2 } from './txn-kit.js';

// The seeded company's transactions, January to June 2025 (sales.ts and purchases.ts). Everything is computed from
// fixed rules, so every start (and every reset) gives the same books.

export type Transactions = Pick<
  Entities,
  | 'Invoice'
  | 'Payment'
  | 'Deposit'
  | 'SalesReceipt'
  | 'RefundReceipt'
  | 'CreditMemo'
  | 'Estimate'
  | 'Bill'
  | 'BillPayment'
  | 'VendorCredit'
  | 'Purchase'
  | 'PurchaseOrder'
  | 'Transfer'
  | 'JournalEntry'
  | 'TimeActivity'
>;

export function transactions(lists: Lists): Transactions {
  const helpers = bookHelpers(lists);
  const sold = sales(lists, helpers);
  return { ...sold, ...purchases(lists, helpers, sold.Invoice) };
}
