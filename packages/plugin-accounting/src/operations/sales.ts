import { defineFind } from './kit/find.js';

// Sales: the customers (and the types they are grouped by), and what is sold to them — estimates, invoices, sales
// receipts — with the payments received, the credit memos and the refunds.

export const findCustomers = defineFind({
  name: 'find_customers',
  path: '/customers',
  entity: 'Customer',
  summary: "Find customers (the firm's clients) by name, email or balance owed",
  about:
    'Finds the customers the firm bills, that is its clients and their jobs (sub-customers), with DisplayName, CompanyName, PrimaryEmailAddr, Active and Balance, the open receivables each owes. Their ids are the CustomerRef of invoices and payments and the customer filter of the reports.',
  where: "DisplayName LIKE 'Harbor%' AND Active = true",
});

export const findCustomerTypes = defineFind({
  name: 'find_customer_types',
  path: '/customer-types',
  entity: 'CustomerType',
  summary: 'Find the customer types clients are grouped by',
  about:
    'Finds the customer types the books group customers (clients) by, such as retail or referral clients, with Name and Active. For the customers themselves use find_customers.',
  where: 'Active = true',
});

export const findEstimates = defineFind({
  name: 'find_estimates',
  path: '/estimates',
  entity: 'Estimate',
  summary: 'Find estimates (quotes, fee proposals) sent to clients',
  about:
    'Finds estimates, the quotes or fee proposals sent to customers before anything is invoiced, with CustomerRef, TxnDate, ExpirationDate, TotalAmt and TxnStatus (Pending, Accepted, Closed, Rejected). Invoices already sent are in find_invoices.',
  where: "TxnStatus = 'Pending'",
});

export const findInvoices = defineFind({
  name: 'find_invoices',
  path: '/invoices',
  entity: 'Invoice',
  summary: 'Find invoices clients owe the firm: unpaid, due or overdue',
  about:
    "Finds the invoices the firm sent its customers (clients), paid or unpaid, with DocNumber, CustomerRef, TxnDate, DueDate, TotalAmt, Balance (the part still unpaid) and line items. Unpaid invoices for a client: Balance > '0' AND CustomerRef = '<id from find_customers>'; overdue ones add DueDate < today. What the firm owes its own vendors is in find_bills, not here.",
  where: "Balance > '0' AND TxnDate >= '2025-01-01' ORDERBY DueDate",
});

export const findPayments = defineFind({
  name: 'find_payments',
  path: '/payments',
  entity: 'Payment',
  summary: 'Find client payments: did a client pay their invoice',
  about:
    'Finds customer payments, the money clients paid the firm against their invoices (checks, cards, transfers received), with CustomerRef, TxnDate, TotalAmt, UnappliedAmt, PaymentMethodRef and the invoices each settles. Payments the firm made to its vendors are in find_bill_payments.',
  where: "TxnDate >= '2025-06-01'",
});

export const findSalesReceipts = defineFind({
  name: 'find_sales_receipts',
  path: '/sales-receipts',
  entity: 'SalesReceipt',
  summary: 'Find sales receipts for fees paid on the spot',
  about:
    'Finds sales receipts, sales paid at once with no invoice (a flat fee paid at the consultation), with CustomerRef, TxnDate, TotalAmt, PaymentMethodRef and DepositToAccountRef. Invoiced work paid later is in find_invoices and find_payments.',
  where: "TxnDate >= '2025-01-01' ORDERBY TxnDate DESC",
});

export const findCreditMemos = defineFind({
  name: 'find_credit_memos',
  path: '/credit-memos',
  entity: 'CreditMemo',
  summary: 'Find credit memos issued to clients',
  about:
    'Finds credit memos, the credits given to customers for a write-off, a refund owed or goodwill, with CustomerRef, TxnDate, TotalAmt and RemainingCredit (the part still unused). Money actually paid back is in find_refund_receipts.',
  where: "TxnDate >= '2025-01-01'",
});

export const findRefundReceipts = defineFind({
  name: 'find_refund_receipts',
  path: '/refund-receipts',
  entity: 'RefundReceipt',
  summary: 'Find refunds the firm paid back to clients',
  about:
    'Finds refund receipts, money the firm paid back to customers (an overpayment returned), with CustomerRef, TxnDate, TotalAmt and DepositToAccountRef, the account it was paid from.',
  where: "TxnDate >= '2025-01-01'",
});
