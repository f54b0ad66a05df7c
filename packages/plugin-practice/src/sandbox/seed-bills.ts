import {
  addDays,
  billBalance,
  billPaid,
  billTotal,
  FIRM_BILLS,
  FIRM_PEOPLE,
  FIRM_TRUST_DEPOSITS,
  type FirmBill,
  firmBill,
  firmPersonNamed,
} from '@portico/core/testing/emulator';
import { type Db, insert } from './model.js';

// The firm's bills and trust money (@portico/core/testing's FIRM_BILLS and FIRM_TRUST_DEPOSITS) as Clio keeps them:
// each bill with the time and expenses it bills (at each person's rate), the payments and credit that paid it, its
// line items; the trust account's deposits held per client matter and what bills took from them; the operating
// account's receipts. The accounts' balances are the sums of their transactions.

/** The day the seed is written against (seed.ts's AUTHORED_TODAY; the whole seed moves onto the sandbox clock). */
const day = (days: number) => addDays('2024-02-12', days);
const ref = (id: number, extra: Record<string, unknown> = {}) => ({ id, ...extra });

/** Clio's ids of the firm's bills (6006 is Northwind's trust request, in seed-money.ts). */
export const BILL_IDS: Record<string, number> = { '1033': 6001, '1034': 6002, '1041': 6003, '1029': 6004, '1042': 6005, '1014': 6007 };
/** The activity ids each bill's time and expenses get, in the bill's order (time first). */
const ACTIVITY_IDS: Record<string, number[]> = {
  '1014': [5001, 5002],
  '1029': [5003, 5004, 5005],
  '1033': [5006, 5007, 5008],
  '1034': [5009, 5010, 5011],
  '1042': [5023, 5024],
};
/** Bill 1041's review is logged with the day's other work (seed-work.ts, 5022). */
export const DRAFT_REVIEW_ACTIVITY = 5022;

export const OPERATING_ACCOUNT = 6301;
export const TRUST_ACCOUNT = 6302;
/** The operating account's balance (what the firm's books carried in before the transactions below, plus them). */
const OPERATING_BALANCE = 48_210.5;

const userOf = (name: string) => 1001 + FIRM_PEOPLE.findIndex((p) => p.name === name);
const descriptionOf = (note: string) => (note.startsWith('Drafting') ? 4001 : note.startsWith('Research') ? 4004 : 4003);

/**
 * The firm's bills with their activities, payments, credit and line items. `matterOf` and `contactOf` give the Clio
 * ids of a matter (by title) and a client (by name).
 */
export function seedFirmBills(db: Db, matterOf: (title: string) => number, contactOf: (client: string) => number): void {
  for (const bill of FIRM_BILLS) {
    const id = BILL_IDS[bill.number] as number;
    const matter = matterOf(bill.matter);
    const issued = bill.state !== 'draft';
    (ACTIVITY_IDS[bill.number] ?? []).forEach((activity, i) => {
      const time = bill.time[i];
      const expense = time ? undefined : bill.expenses[i - bill.time.length];
      const price = time ? firmPersonNamed(time.who).rate : (expense?.amount ?? 0);
      const hours = time ? time.hours : 1;
      insert(db, '/activities', {
        id: activity,
        type: time ? 'TimeEntry' : 'ExpenseEntry',
        date: day(-(time?.daysAgo ?? expense?.daysAgo ?? 0)),
        quantity: time ? hours * 3600 : 1,
        quantity_in_hours: hours,
        price,
        total: Math.round(price * hours * 100) / 100,
        note: time?.note ?? expense?.note ?? '',
        billed: issued,
        non_billable: false,
        no_charge: false,
        flat_rate: false,
        matter: ref(matter),
        user: ref(time ? userOf(time.who) : userOf('Tom Becker')),
        activity_description: time ? ref(descriptionOf(time.note)) : null,
        bill: ref(id),
      });
    });
    const total = billTotal(bill);
    insert(db, '/bills', {
      id,
      number: bill.number,
      issued_at: day(-bill.issuedDaysAgo),
      due_at: day(-bill.dueDaysAgo),
      state: bill.state,
      status: { draft: 'Draft', awaiting_payment: 'Awaiting Payment', paid: 'Paid' }[bill.state],
      type: 'MatterBill',
      kind: 'revenue_kind',
      total,
      balance: billBalance(bill),
      paid: billPaid(bill),
      currency: ref(1),
      client: ref(contactOf(bill.client)),
      matters: [ref(matter)],
      subject: `Invoice ${bill.number}`,
      // issued bills went out by email the day they were issued
      last_sent_at: issued ? `${day(-bill.issuedDaysAgo)}T17:00:00+00:00` : null,
    });
  }
  seedPayments(db, matterOf, contactOf);
  seedLineItems(db, matterOf);
}

/** What paid the bills: trust funds, an online payment, a credit memo, and a card payment later voided. */
function seedPayments(db: Db, matterOf: (title: string) => number, contactOf: (client: string) => number): void {
  const [vance, rosaFirst, rosa, northwind] = [firmBill('1033'), firmBill('1014'), firmBill('1029'), firmBill('1034')];
  const payment = (bill: FirmBill, by: string, voided = false) =>
    bill.payments.find((p) => p.by === by && Boolean(p.voided) === voided) as FirmBill['payments'][number];
  // [id, bill, amount, date, parent id, parent type, voided at]
  const allocations: Array<[number, FirmBill, number, string, number, string, string | null]> = [
    // a payment from trust funds is a Payment too (13_811, 13_812: paid out of the client's trust balance)
    [6101, vance, payment(vance, 'trust').amount, day(-payment(vance, 'trust').daysAgo), 13_811, 'Payment', null],
    [6102, rosa, payment(rosa, 'card').amount, day(-payment(rosa, 'card').daysAgo), 13_801, 'Payment', null],
    [6103, northwind, payment(northwind, 'credit').amount, day(-payment(northwind, 'credit').daysAgo), 6201, 'CreditMemo', null],
    [
      6104,
      northwind,
      payment(northwind, 'card', true).amount,
      day(-payment(northwind, 'card', true).daysAgo),
      13_802,
      'Payment',
      `${day(-payment(northwind, 'card', true).daysAgo + 2)}T10:00:00+00:00`,
    ],
    [6105, rosaFirst, payment(rosaFirst, 'trust').amount, day(-payment(rosaFirst, 'trust').daysAgo), 13_812, 'Payment', null],
  ];
  for (const [id, bill, amount, date, parent, type, voided] of allocations) {
    insert(db, '/allocations', {
      id,
      amount,
      date,
      status: voided ? 'invalid' : 'valid',
      voided_at: voided,
      parent: ref(parent, { type }),
      bill: ref(BILL_IDS[bill.number] as number),
      contact: ref(contactOf(bill.client)),
      matter: ref(matterOf(bill.matter)),
    });
  }
  insert(db, '/credit_memos', {
    id: 6201,
    amount: payment(northwind, 'credit').amount,
    date: day(-payment(northwind, 'credit').daysAgo),
    description: 'Courtesy discount',
    contact: ref(contactOf(northwind.client)),
  });
  // online payments: Rosa Delgado's half, Northwind's voided card payment, and Northwind's rest, still pending
  const payments: Array<[number, string, FirmBill, number]> = [
    [13_801, 'completed', rosa, payment(rosa, 'card').amount],
    [13_802, 'voided', northwind, payment(northwind, 'card', true).amount],
    [13_803, 'pending', northwind, billBalance(northwind)],
  ];
  for (const [id, state, bill, amount] of payments) {
    insert(db, '/clio_payments/payments', {
      id,
      amount,
      currency: 'USD',
      state,
      description: `Online payment for bill ${bill.number}`,
      contact: ref(contactOf(bill.client)),
      bills: [ref(BILL_IDS[bill.number] as number)],
    });
  }
  // what bills took from trust
  const fromTrust: Array<[number, FirmBill]> = [
    [13_951, vance],
    [13_952, rosaFirst],
  ];
  for (const [id, bill] of fromTrust) {
    const paid = payment(bill, 'trust');
    insert(db, '/trust_line_items', {
      id,
      date: day(-paid.daysAgo),
      total: -paid.amount,
      note: 'Paid from trust',
      bill: ref(BILL_IDS[bill.number] as number),
      matter: ref(matterOf(bill.matter)),
      client: ref(contactOf(bill.client)),
    });
  }
}

/** A line item per activity a bill bills (the expenses summed under the services, not shown). */
function seedLineItems(db: Db, matterOf: (title: string) => number): void {
  let id = 13_901;
  for (const bill of FIRM_BILLS) {
    const activities = bill.number === '1041' ? [DRAFT_REVIEW_ACTIVITY] : (ACTIVITY_IDS[bill.number] ?? []);
    activities.forEach((activity, i) => {
      const time = bill.time[i];
      const expense = time ? undefined : bill.expenses[i - bill.time.length];
      const price = time ? firmPersonNamed(time.who).rate : (expense?.amount ?? 0);
      const quantity = time ? time.hours : 1;
      insert(db, '/line_items', {
        id: id++,
        type: 'ActivityLineItem',
        description: time?.note ?? expense?.note ?? '',
        kind: time ? 'Service' : 'Expense',
        quantity,
        price,
        total: Math.round(price * quantity * 100) / 100,
        group_ordering: time ? 1 : 2,
        display: Boolean(time),
        bill: ref(BILL_IDS[bill.number] as number),
        activity: ref(activity),
        matter: ref(matterOf(bill.matter)),
      });
    });
  }
}

/**
 * The bank accounts' transactions: retainers into trust, each for its client's matter; what bills took from trust,
 * out of trust and into operating; the card payment; a court fee; and what operating carried in. Each account's
 * balance is the sum of its transactions.
 */
export function seedBankTransactions(db: Db, matterOf: (title: string) => number, contactOf: (client: string) => number): void {
  // [account, amount, days ago, description, source, client, matter]
  const moves: Array<[number, number, number, string, string, string | null, string | null]> = [];
  for (const d of FIRM_TRUST_DEPOSITS) moves.push([TRUST_ACCOUNT, d.amount, d.daysAgo, d.note, d.source, d.client, d.matter]);
  for (const bill of FIRM_BILLS) {
    for (const p of bill.payments) {
      if (p.voided || p.by === 'credit') continue;
      if (p.by === 'trust') {
        moves.push([
          TRUST_ACCOUNT,
          -p.amount,
          p.daysAgo,
          `Transfer to operating for bill ${bill.number}`,
          'Transfer',
          bill.client,
          bill.matter,
        ]);
        moves.push([
          OPERATING_ACCOUNT,
          p.amount,
          p.daysAgo,
          `Transfer from trust for bill ${bill.number}`,
          'Transfer',
          bill.client,
          bill.matter,
        ]);
      } else {
        const source = p.by === 'card' ? 'Credit card' : 'Check';
        moves.push([OPERATING_ACCOUNT, p.amount, p.daysAgo, `Payment for bill ${bill.number}`, source, bill.client, bill.matter]);
      }
    }
  }
  moves.push([OPERATING_ACCOUNT, -435, 1, 'Court filing fee', 'Debit card', 'Lucia Moreno', 'Moreno slip and fall']);
  const operating = moves.filter((m) => m[0] === OPERATING_ACCOUNT).reduce((sum, m) => sum + m[1], 0);
  moves.push([
    OPERATING_ACCOUNT,
    Math.round((OPERATING_BALANCE - operating) * 100) / 100,
    180,
    'Balance brought forward',
    'Transfer',
    null,
    null,
  ]);
  moves.sort((a, b) => b[2] - a[2]);
  moves.forEach(([account, amount, daysAgo, description, source, client, matter], i) => {
    const id = 6311 + i;
    insert(db, '/bank_transactions', {
      id,
      type: 'BankTransaction',
      bank_account_id: account,
      source,
      confirmation: `HP-${id}`,
      date: day(-daysAgo),
      amount: Math.abs(amount),
      currency: 'USD',
      currency_id: 1,
      description,
      exchange_rate: 1,
      transaction_type: amount >= 0 ? 'Deposit' : 'Withdrawal',
      funds_in: Math.max(amount, 0),
      funds_out: amount < 0 ? -amount : 0,
      clio_payments_transaction: false,
      current_account_balance: null,
      read_only_confirmation: false,
      client: client === null ? null : ref(contactOf(client)),
      matter: matter === null ? null : ref(matterOf(matter)),
      bank_account: ref(account),
    });
  });
}

/** An account's balance: the sum of its transactions. */
export function accountBalance(db: Db, account: number): number {
  const rows = (db.records.get('/bank_transactions') ?? []).map((s) => s.row);
  const sum = rows
    .filter((r) => r.bank_account_id === account)
    .reduce((total, r) => total + (r.transaction_type === 'Deposit' ? 1 : -1) * Number(r.amount), 0);
  return Math.round(sum * 100) / 100;
}
