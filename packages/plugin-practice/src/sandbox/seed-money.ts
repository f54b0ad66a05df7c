import { addDays, billBalance, firmBill, STORY } from '@portico/core/testing/emulator';
import { type Db, insert } from './model.js';

// The firm's money beyond its bills (seed-bills.ts): Northwind's trust request in Canadian dollars, Bayview's
// unapplied credit, payment links for what is still owed, a zero-balance payroll account, a closed one, and interest
// on the overdue bills.

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

  insert(db, '/credit_memos', { id: 6202, amount: 250, date: '2024-01-29', description: 'Lease review discount', contact: ref(2005) });

  // payment links: the one sent to Rosa Delgado for the rest of her bill is still open; Northwind's has expired
  const links: Array<[number, number, number, number, number]> = [
    [13_851, 6004, 2007, billBalance(firmBill(STORY.invoice.number)), 10],
    [13_852, 6002, 2002, billBalance(firmBill('1034')), -5],
    [13_853, 6006, 2002, 5000, 20],
  ];
  for (const [id, bill, contact, amount, expires] of links) {
    insert(db, '/clio_payments/links', {
      id,
      amount,
      currency: 'USD',
      description: `Pay bill ${bill === 6004 ? STORY.invoice.number : bill === 6002 ? '1034' : '6'}`,
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

  insert(db, '/interest_charges', {
    id: 13_971,
    date: day(-1),
    description: 'Interest on overdue bill 1034',
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
