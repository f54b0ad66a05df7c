import { defineFind } from './kit/find.js';

// Sales: the customers (and the types they are grouped by), and what is sold to them — estimates, invoices, sales
// receipts — with the payments received, the credit memos and the refunds.

export const findCustomers = defineFind({
  name: 'find_customers',
  path: '/customers',
  entity: 'Customer',
  plural: 'customers',
  about:
    'Searches customers (and their jobs/sub-customers): DisplayName, CompanyName, PrimaryEmailAddr, Balance (open receivables), ' +
    'Active, Job. Customer ids are what invoices, payments and report filters (customer) refer to.',
  where: "DisplayName LIKE 'Harbor%' AND Active = true",
});

export const findCustomerTypes = defineFind({
  name: 'find_customer_types',
  path: '/customer-types',
  entity: 'CustomerType',
  plural: 'customer types',
  about: 'Searches customer types, the categories customers can be grouped by (wholesale, retail…): Name, Active.',
  where: 'Active = true',
});

export const findEstimates = defineFind({
  name: 'find_estimates',
  path: '/estimates',
  entity: 'Estimate',
  plural: 'estimates (quotes)',
  about:
    'Searches estimates sent to customers: CustomerRef, TxnDate, ExpirationDate, TotalAmt and TxnStatus (Pending, Accepted, Closed, Rejected).',
  where: "TxnStatus = 'Pending'",
});

export const findInvoices = defineFind({
  name: 'find_invoices',
  path: '/invoices',
  entity: 'Invoice',
  plural: 'invoices',
  about:
    'Searches invoices: DocNumber, CustomerRef, TxnDate, DueDate, TotalAmt, Balance (what is still unpaid), EmailStatus and ' +
    "line items. Unpaid invoices: Balance > '0'; one customer: CustomerRef = '<customer id>'.",
  where: "Balance > '0' AND TxnDate >= '2025-01-01' ORDERBY DueDate",
});

export const findPayments = defineFind({
  name: 'find_payments',
  path: '/payments',
  entity: 'Payment',
  plural: 'customer payments',
  about:
    'Searches payments received from customers: CustomerRef, TxnDate, TotalAmt, UnappliedAmt, PaymentMethodRef and the invoices they pay.',
  where: "TxnDate >= '2025-06-01'",
});

export const findSalesReceipts = defineFind({
  name: 'find_sales_receipts',
  path: '/sales-receipts',
  entity: 'SalesReceipt',
  plural: 'sales receipts',
  about: 'Searches sales paid on the spot (no invoice): CustomerRef, TxnDate, TotalAmt, PaymentMethodRef, DepositToAccountRef.',
  where: "TxnDate >= '2025-01-01' ORDERBY TxnDate DESC",
});

export const findCreditMemos = defineFind({
  name: 'find_credit_memos',
  path: '/credit-memos',
  entity: 'CreditMemo',
  plural: 'credit memos',
  about: 'Searches credit memos given to customers (returns, refunds owed, goodwill): CustomerRef, TxnDate, TotalAmt, RemainingCredit.',
  where: "TxnDate >= '2025-01-01'",
});

export const findRefundReceipts = defineFind({
  name: 'find_refund_receipts',
  path: '/refund-receipts',
  entity: 'RefundReceipt',
  plural: 'refund receipts',
  about: 'Searches refunds paid back to customers: CustomerRef, TxnDate, TotalAmt, DepositToAccountRef (paid from).',
  where: "TxnDate >= '2025-01-01'",
});
