import { defineFind } from './kit/find.js';

// The lists QuickBooks keeps for filling in and tagging transactions: products and services (items), classes,
// departments (locations), payment methods, payment terms, and the attachments linked to records.

export const findItems = defineFind({
  name: 'find_items',
  path: '/items',
  entity: 'Item',
  plural: 'products and services',
  about:
    'Searches products and services: Name, Sku, Type (Inventory, NonInventory, Service, Group, Category), UnitPrice, QtyOnHand, Active.',
  where: "Type = 'Service' AND Active = true",
});

export const findClasses = defineFind({
  name: 'find_classes',
  path: '/classes',
  entity: 'Class',
  plural: 'classes',
  about:
    'Searches classes, the tags companies use to track segments (locations, programs, product lines): Name, FullyQualifiedName, SubClass, Active.',
  where: "Name LIKE 'Estate%'",
});

export const findDepartments = defineFind({
  name: 'find_departments',
  path: '/departments',
  entity: 'Department',
  plural: 'departments (locations)',
  about: 'Searches departments, shown as "locations" in QuickBooks: Name, FullyQualifiedName, SubDepartment, Active.',
  where: 'Active = true',
});

export const findPaymentMethods = defineFind({
  name: 'find_payment_methods',
  path: '/payment-methods',
  entity: 'PaymentMethod',
  plural: 'payment methods',
  about: 'Searches payment methods (Cash, Check, Visa…): Name, Type (CREDIT_CARD or NON_CREDIT_CARD), Active.',
  where: "Type = 'CREDIT_CARD'",
});

export const findTerms = defineFind({
  name: 'find_terms',
  path: '/terms',
  entity: 'Term',
  plural: 'payment terms',
  about: 'Searches payment terms (Net 30, Due on receipt…): Name, Type (STANDARD or DATE_DRIVEN), DueDays, DiscountPercent, Active.',
  where: "Name LIKE 'Net%'",
});

export const findAttachables = defineFind({
  name: 'find_attachables',
  path: '/attachables',
  entity: 'Attachable',
  plural: 'attachments and notes',
  about:
    'Searches attachments (receipts, files) and notes linked to transactions and names: FileName, ContentType, Size, Note and the records they belong to.',
  where: "ContentType = 'application/pdf'",
});
