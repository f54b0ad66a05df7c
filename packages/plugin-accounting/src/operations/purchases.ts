import { defineFind } from './kit/find.js';

// Purchases: the vendors (suppliers), their bills and the payments of those bills, expenses paid at once (QuickBooks'
// Purchase: cash, check, card), purchase orders and vendor credits.

export const findVendors = defineFind({
  name: 'find_vendors',
  path: '/vendors',
  entity: 'Vendor',
  summary: 'Find vendors (suppliers, payees) the firm pays',
  about:
    'Finds vendors, the suppliers, experts, couriers and other payees the firm pays, with DisplayName, CompanyName, PrimaryEmailAddr, Vendor1099, Active and Balance, what the firm still owes each. Their ids are the VendorRef of bills and purchases and the vendor filter of the reports.',
  where: "DisplayName LIKE 'Office%' AND Active = true",
});

export const findBills = defineFind({
  name: 'find_bills',
  path: '/bills',
  entity: 'Bill',
  summary: 'Find vendor bills the firm owes and has to pay',
  about:
    "Finds bills, what vendors and suppliers charged the firm (accounts payable: what the firm owes them), with VendorRef, TxnDate, DueDate, TotalAmt, Balance (the unpaid part) and line items. Unpaid bills: Balance > '0'. Invoices the firm sent its clients are in find_invoices, not here.",
  where: "Balance > '0' AND DueDate < '2025-07-01'",
});

export const findBillPayments = defineFind({
  name: 'find_bill_payments',
  path: '/bill-payments',
  entity: 'BillPayment',
  summary: 'Find payments the firm made on vendor bills',
  about:
    'Finds bill payments, the checks and card payments the firm made to settle vendor bills, with VendorRef, TxnDate, TotalAmt, PayType and the bills each pays. Money received from clients is in find_payments.',
  where: "TxnDate >= '2025-01-01'",
});

export const findPurchases = defineFind({
  name: 'find_purchases',
  path: '/purchases',
  entity: 'Purchase',
  summary: 'Find expenses paid at once by check, cash or card',
  about:
    'Finds purchases, the expenses the firm paid on the spot (card charges, checks written, cash spent), with PaymentType (Cash, Check, CreditCard), AccountRef (paid from), EntityRef (the payee), TxnDate and TotalAmt. Expenses entered as a bill to pay later are in find_bills.',
  where: "PaymentType = 'CreditCard' AND TxnDate >= '2025-01-01'",
});

export const findPurchaseOrders = defineFind({
  name: 'find_purchase_orders',
  path: '/purchase-orders',
  entity: 'PurchaseOrder',
  summary: 'Find purchase orders sent to vendors',
  about:
    'Finds purchase orders, what the firm ordered from vendors before being billed, with VendorRef, TxnDate, TotalAmt and POStatus (Open or Closed).',
  where: "POStatus = 'Open'",
});

export const findVendorCredits = defineFind({
  name: 'find_vendor_credits',
  path: '/vendor-credits',
  entity: 'VendorCredit',
  summary: 'Find credits vendors granted the firm',
  about:
    'Finds vendor credits, the credits suppliers granted the firm for returns or overcharges, with VendorRef, TxnDate, TotalAmt and Balance (what is left to use against their bills).',
  where: "TxnDate >= '2025-01-01'",
});
