import { defineFind } from './kit/find.js';

// The lists QuickBooks keeps for filling in and tagging transactions: products and services (items), classes,
// departments (locations), payment methods, payment terms, and the attachments linked to records.

export const findItems = defineFind({
  name: 'find_items',
  path: '/items',
  entity: 'Item',
  summary: 'Find the products and services invoices are billed with',
  about:
    'Finds items, the services and products that invoice lines bill (hourly services, flat-fee packages, reimbursed costs), with Name, Sku, Type (Service, NonInventory, Inventory, Group, Category), UnitPrice, QtyOnHand and Active.',
  where: "Type = 'Service' AND Active = true",
});

export const findClasses = defineFind({
  name: 'find_classes',
  path: '/classes',
  entity: 'Class',
  summary: 'Find classes used to track segments such as offices or programs',
  about:
    'Finds classes, the labels the books use to track segments such as offices, programs or lines of work, with Name, FullyQualifiedName, SubClass and Active. The sales and profit reports can be split by class.',
  where: "Name LIKE 'Estate%'",
});

export const findDepartments = defineFind({
  name: 'find_departments',
  path: '/departments',
  entity: 'Department',
  summary: 'Find departments, the office locations of the books',
  about:
    'Finds departments, shown as locations in QuickBooks (an office, a branch), with Name, FullyQualifiedName, SubDepartment and Active.',
  where: 'Active = true',
});

export const findPaymentMethods = defineFind({
  name: 'find_payment_methods',
  path: '/payment-methods',
  entity: 'PaymentMethod',
  summary: 'Find payment methods such as cash, check or Visa',
  about:
    'Finds the payment methods a payment or sales receipt can record (Cash, Check, Visa…), with Name, Type (CREDIT_CARD or NON_CREDIT_CARD) and Active.',
  where: "Type = 'CREDIT_CARD'",
});

export const findTerms = defineFind({
  name: 'find_terms',
  path: '/terms',
  entity: 'Term',
  summary: 'Find payment terms such as Net 30 or Due on receipt',
  about:
    'Finds the payment terms that set when an invoice or bill falls due (Net 30, Due on receipt…), with Name, Type (STANDARD or DATE_DRIVEN), DueDays, DiscountPercent and Active.',
  where: "Name LIKE 'Net%'",
});

export const findAttachables = defineFind({
  name: 'find_attachables',
  path: '/attachables',
  entity: 'Attachable',
  summary: 'Find attached files, scanned receipts and notes',
  about:
    'Finds attachables: files (scanned receipts, PDFs) and notes attached to transactions, customers or vendors, with FileName, ContentType, Size, Note and the records they belong to.',
  where: "ContentType = 'application/pdf'",
});
