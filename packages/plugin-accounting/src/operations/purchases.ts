import { defineFind } from './kit/find.js';

// Purchases: the vendors (suppliers), their bills and the payments of those bills, expenses paid at once (QuickBooks'
// Purchase: cash, check, card), purchase orders and vendor credits.

export const findVendors = defineFind({
  name: 'find_vendors',
  path: '/vendors',
  entity: 'Vendor',
  plural: 'vendors (suppliers)',
  about:
    'Searches vendors: DisplayName, CompanyName, PrimaryEmailAddr, Balance (what the company owes them), Vendor1099, Active. ' +
    'Vendor ids are what bills, purchases and report filters (vendor) refer to.',
  where: "DisplayName LIKE 'Office%' AND Active = true",
});

export const findBills = defineFind({
  name: 'find_bills',
  path: '/bills',
  entity: 'Bill',
  plural: 'bills (vendor invoices to pay)',
  about: 'Searches bills: amounts owed to vendors, with VendorRef, TxnDate, DueDate, TotalAmt, Balance (unpaid part) and line items.',
  where: "Balance > '0' AND DueDate < '2025-07-01'",
});

export const findBillPayments = defineFind({
  name: 'find_bill_payments',
  path: '/bill-payments',
  entity: 'BillPayment',
  plural: 'bill payments',
  about: 'Searches payments made against bills (by check or credit card): VendorRef, TxnDate, TotalAmt, PayType and the bills they settle.',
  where: "TxnDate >= '2025-01-01'",
});

export const findPurchases = defineFind({
  name: 'find_purchases',
  path: '/purchases',
  entity: 'Purchase',
  plural: 'purchases (expenses, checks, card charges)',
  about:
    'Searches expenses paid at once: PaymentType (Cash, Check, CreditCard), AccountRef (paid from), EntityRef (payee), TxnDate, TotalAmt.',
  where: "PaymentType = 'CreditCard' AND TxnDate >= '2025-01-01'",
});

export const findPurchaseOrders = defineFind({
  name: 'find_purchase_orders',
  path: '/purchase-orders',
  entity: 'PurchaseOrder',
  plural: 'purchase orders',
  about: 'Searches purchase orders sent to vendors: VendorRef, TxnDate, TotalAmt, POStatus (Open or Closed).',
  where: "POStatus = 'Open'",
});

export const findVendorCredits = defineFind({
  name: 'find_vendor_credits',
  path: '/vendor-credits',
  entity: 'VendorCredit',
  plural: 'vendor credits',
  about: 'Searches credits received from vendors (returns, refunds due): VendorRef, TxnDate, TotalAmt, Balance.',
  where: "TxnDate >= '2025-01-01'",
});
