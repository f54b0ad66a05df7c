import { addDays } from '@portico/core/testing/emulator';
import { type Db, insert } from './model.js';

// The firm's money beyond what seed.ts writes: Northwind's trust request in Canadian dollars, payments and a credit
// applied to bills (one payment voided), online payments and payment links, a zero-balance operating account, line
// items of the bills, trust applied to bills and interest on an overdue one. The story's bill 6004 keeps its figures:
// the payment on it is the half Rosa Delgado paid.

const day = (days: number) => addDays('2024-02-12', days);
const at = (days: number, time: string) => `${day(days)}T${time}+00:00`;
const ref = (id: number, extra: Record<string, unknown> = {}) => ({ id, ...extra });

export function seedFirmMoney(db: Db): void {
  insert(db, '/bills', {
    id: 6006,
    number: '6',
    issued_at: day(-5),
    due_at: day(25),
    state: 'awaiting_payment',
    status: 'Awaiting Payment',
    type: 'MatterBill',
    kind: 'trust_kind',
    total: 5000,
    balance: 5000,
    paid: 0,
    currency: ref(2),
    client: ref(2002),
    matters: [ref(3008)],
    subject: 'Trust request: trademark licence retainer',
    last_sent_at: at(-5, '17:00:00'),
  });

  // what paid the bills: payments (one voided) and Northwind's credit memo
  const allocations: Array<[number, number, number, number, number, string, number, string, string | null]> = [
    [6102, 6004, 2007, 3006, 987.5, day(-30), 13_801, 'Payment', null],
    [6103, 6002, 2002, 3002, 100, '2024-01-25', 6201, 'CreditMemo', null],
    [6104, 6002, 2002, 3002, 500, '2024-01-28', 13_802, 'Payment', '2024-01-30T10:00:00+00:00'],
  ];
  for (const [id, bill, contact, matter, amount, date, parent, type, voided] of allocations) {
    insert(db, '/allocations', {
      id,
      amount,
      date,
      status: voided ? 'invalid' : 'valid',
      voided_at: voided,
      parent: ref(parent, { type }),
      bill: ref(bill),
      contact: ref(contact),
      matter: ref(matter),
    });
  }
  insert(db, '/credit_memos', { id: 6202, amount: 250, date: '2024-01-29', description: 'Lease review discount', contact: ref(2005) });

  const payments: Array<[number, string, number, number, number]> = [
    [13_801, 'completed', 2007, 6004, 987.5],
    [13_802, 'voided', 2002, 6002, 500],
    [13_803, 'pending', 2001, 6005, 875],
  ];
  for (const [id, state, contact, bill, amount] of payments) {
    insert(db, '/clio_payments/payments', {
      id,
      amount,
      currency: 'USD',
      state,
      description: `Online payment for bill ${bill}`,
      contact: ref(contact),
      bills: [ref(bill)],
    });
  }
  // payment links: the one sent to Rosa Delgado for the rest of her bill is still open; Northwind's has expired
  const links: Array<[number, number, number, number, number]> = [
    [13_851, 6004, 2007, 987.5, 10],
    [13_852, 6002, 2002, 2240, -5],
    [13_853, 6006, 2002, 5000, 20],
  ];
  for (const [id, bill, contact, amount, expires] of links) {
    insert(db, '/clio_payments/links', {
      id,
      amount,
      currency: 'USD',
      description: `Pay bill ${bill}`,
      expires_at: at(expires, '23:59:00'),
      active: expires >= 0,
      bill: ref(bill),
      contact: ref(contact),
    });
  }

  // the payroll account: kept by the bookkeeper, empty between pay runs
  insert(db, '/bank_accounts', {
    id: 6303,
    name: 'Payroll',
    type: 'Operating',
    balance: 0,
    currency: 'USD',
    default_account: false,
    institution: 'First Bay Bank',
    account_number: '****2207',
    status: 'open',
    user: ref(1006),
  });
  // the firm's first operating account, closed when it moved to First Bay Bank
  insert(db, '/bank_accounts', {
    id: 6304,
    name: 'Operating (Golden Gate Savings)',
    type: 'Operating',
    balance: 0,
    currency: 'USD',
    default_account: false,
    institution: 'Golden Gate Savings',
    account_number: '****0158',
    status: 'closed',
  });

  // line items of the issued and draft bills (the expense on bill 1 is summed, not shown)
  const items: Array<[number, number, number, number, string, number, boolean]> = [
    [13_901, 6001, 5001, 3001, 'Service', 1, true],
    [13_902, 6001, 5004, 3001, 'Expense', 2, false],
    [13_903, 6002, 5002, 3002, 'Service', 1, true],
    [13_904, 6003, 5022, 3004, 'Service', 1, true],
  ];
  for (const [id, bill, activity, matter, kind, group, display] of items) {
    insert(db, '/line_items', {
      id,
      type: 'ActivityLineItem',
      description: kind === 'Service' ? 'Professional services' : 'Filing fee',
      kind,
      quantity: 1,
      price: 350,
      total: 350,
      group_ordering: group,
      display,
      bill: ref(bill),
      activity: ref(activity),
      matter: ref(matter),
    });
  }
  insert(db, '/trust_line_items', {
    id: 13_951,
    date: '2024-01-20',
    total: -1575,
    note: 'Paid from trust',
    bill: ref(6001),
    matter: ref(3001),
    client: ref(2001),
  });
  insert(db, '/trust_line_items', {
    id: 13_952,
    date: '2024-01-28',
    total: -500,
    note: 'Applied from trust',
    bill: ref(6002),
    matter: ref(3002),
    client: ref(2002),
  });
  insert(db, '/interest_charges', {
    id: 13_971,
    date: day(-1),
    description: 'Interest on overdue bill 2',
    total: 22.4,
    bill: ref(6002),
    matters: [ref(3002)],
  });
  insert(db, '/interest_charges', {
    id: 13_972,
    date: day(-1),
    description: 'Interest on overdue bill 1029',
    total: 9.88,
    bill: ref(6004),
    matters: [ref(3006)],
  });
}
