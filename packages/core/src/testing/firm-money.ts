import { FIRM_PEOPLE, type FirmPerson, STORY } from './firm-cast.js';

/** Time a person of the firm spent on a bill's matter, billed at their rate. */
export interface FirmTime {
  who: string;
  hours: number;
  note: string;
  daysAgo: number;
}

export interface FirmExpense {
  amount: number;
  note: string;
  daysAgo: number;
}

/** What paid (part of) a bill: funds from the client's trust, a check or card, or a credit; a voided one paid nothing. */
export interface FirmPayment {
  amount: number;
  daysAgo: number;
  by: 'trust' | 'check' | 'card' | 'credit';
  voided?: boolean;
}

/**
 * A bill of a client matter: Clio's bill and, once issued, QuickBooks' invoice with the same number, amounts and due
 * date. Its total is its time at each person's rate plus its expenses; what is paid is its payments but the voided.
 */
export interface FirmBill {
  number: string;
  client: string;
  matter: string;
  state: 'draft' | 'awaiting_payment' | 'paid';
  issuedDaysAgo: number;
  /** Negative: due in the future. */
  dueDaysAgo: number;
  time: FirmTime[];
  expenses: FirmExpense[];
  payments: FirmPayment[];
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

/** A person of the firm by name. */
export function firmPersonNamed(name: string): FirmPerson {
  const found = FIRM_PEOPLE.find((p) => p.name === name);
  if (!found) throw new Error(`no person of the firm named ${name}`);
  return found;
}

/** A bill's total: its time at each person's rate plus its expenses. */
export function billTotal(bill: FirmBill): number {
  const time = bill.time.reduce((sum, t) => sum + firmPersonNamed(t.who).rate * t.hours, 0);
  return cents(time + bill.expenses.reduce((sum, e) => sum + e.amount, 0));
}

/** What has been paid on a bill (voided payments left out). */
export function billPaid(bill: FirmBill): number {
  return cents(bill.payments.filter((p) => !p.voided).reduce((sum, p) => sum + p.amount, 0));
}

export function billBalance(bill: FirmBill): number {
  return cents(billTotal(bill) - billPaid(bill));
}

/**
 * The client bills, oldest first. Rosa Delgado's first invoice was paid from her trust funds; her second (the story's)
 * is half paid and overdue. Eleanor Vance's was paid from trust; Northwind's is overdue, a courtesy credit applied and
 * a card payment voided. The two drafts are in Clio only: QuickBooks gets an invoice when a bill is issued.
 */
export const FIRM_BILLS: readonly FirmBill[] = [
  {
    number: '1014',
    client: STORY.client.name,
    matter: STORY.matter,
    state: 'paid',
    issuedDaysAgo: 122,
    dueDaysAgo: 107,
    time: [
      { who: 'Daniel Pike', hours: 4, note: 'Intake interview and review of the termination letter', daysAgo: 124 },
      { who: 'Priya Raman', hours: 2, note: 'Research: retaliation after an overtime complaint', daysAgo: 123 },
    ],
    expenses: [],
    payments: [{ amount: 2290, daysAgo: 110, by: 'trust' }],
  },
  {
    number: STORY.invoice.number,
    client: STORY.client.name,
    matter: STORY.matter,
    state: 'awaiting_payment',
    issuedDaysAgo: STORY.invoice.issuedDaysAgo,
    dueDaysAgo: STORY.invoice.dueDaysAgo,
    time: [
      { who: 'Daniel Pike', hours: 3.5, note: 'Demand letter to Brightline Logistics', daysAgo: 61 },
      { who: 'Priya Raman', hours: 1.5, note: 'Analysis of the wage statements', daysAgo: 60 },
    ],
    expenses: [{ amount: 45, note: 'Certified mail and copies', daysAgo: 59 }],
    payments: [{ amount: STORY.invoice.paid, daysAgo: 30, by: 'card' }],
  },
  {
    number: '1033',
    client: 'Eleanor Vance',
    matter: 'Vance divorce and custody',
    state: 'paid',
    issuedDaysAgo: 40,
    dueDaysAgo: 40,
    time: [
      { who: 'Margaret Harlow', hours: 2, note: 'Drafting: custody declaration', daysAgo: 44 },
      { who: 'Tom Becker', hours: 1.5, note: 'Collected the bank statements for the disclosure', daysAgo: 43 },
    ],
    expenses: [{ amount: 60, note: 'Certified copies of the custody order', daysAgo: 42 }],
    payments: [{ amount: 1185, daysAgo: 38, by: 'trust' }],
  },
  {
    number: '1034',
    client: 'Northwind Traders',
    matter: 'Northwind supply contract dispute',
    state: 'awaiting_payment',
    issuedDaysAgo: 36,
    dueDaysAgo: 6,
    time: [
      { who: 'Daniel Pike', hours: 3, note: 'Deposition outline: the warehouse manager', daysAgo: 39 },
      { who: 'Priya Raman', hours: 2.5, note: 'Research: remedies for late delivery under the UCC', daysAgo: 38 },
    ],
    expenses: [{ amount: 227.5, note: 'Court reporter deposit', daysAgo: 37 }],
    payments: [
      { amount: 100, daysAgo: 31, by: 'credit' },
      { amount: 500, daysAgo: 28, by: 'card', voided: true },
    ],
  },
  {
    number: '1041',
    client: 'Lucia Moreno',
    matter: 'Moreno slip and fall',
    state: 'draft',
    issuedDaysAgo: 1,
    dueDaysAgo: -29,
    time: [{ who: 'Priya Raman', hours: 1, note: 'Demand package review', daysAgo: 0 }],
    expenses: [],
    payments: [],
  },
  {
    number: '1042',
    client: 'Eleanor Vance',
    matter: 'Vance divorce and custody',
    state: 'draft',
    issuedDaysAgo: 2,
    dueDaysAgo: -28,
    time: [
      { who: 'Margaret Harlow', hours: 1, note: 'Reviewed the custody evaluator’s report', daysAgo: 4 },
      { who: 'Priya Raman', hours: 1.5, note: 'Drafting: reply declaration', daysAgo: 3 },
    ],
    expenses: [],
    payments: [],
  },
];

/** Time logged on a matter and on no bill yet. */
export interface FirmWork extends FirmTime {
  /** The matter's title (Northwind's trademark licence is its second matter, pending, in Clio only). */
  matter: string;
}

/**
 * The firm's work of this week that no bill holds yet (Clio's unbilled time; the two draft bills hold more, {@link
 * draftTime}), oldest first. With the drafts' time it is all the time logged in the past seven days: Priya Raman logged the most.
 */
export const FIRM_WORK: readonly FirmWork[] = [
  { who: 'Daniel Pike', hours: 1.5, matter: STORY.matter, note: 'Client call: Brightline overtime records and next steps', daysAgo: 3 },
  { who: 'Priya Raman', hours: 2.25, matter: STORY.matter, note: 'Research: retaliation after a wage complaint', daysAgo: 2 },
  { who: 'Daniel Pike', hours: 0.5, matter: 'Northwind trademark licence', note: 'Flat fee: trademark licence review', daysAgo: 2 },
  { who: 'Daniel Pike', hours: 1, matter: 'Northwind supply contract dispute', note: 'Prepared for the deposition', daysAgo: 2 },
  { who: 'Priya Raman', hours: 1.5, matter: 'Northwind supply contract dispute', note: 'Call with Ava Lindstrom', daysAgo: 2 },
  { who: 'Tom Becker', hours: 0.5, matter: 'Moreno slip and fall', note: 'Noted Lucia Moreno’s contact preferences', daysAgo: 1 },
  { who: 'Daniel Pike', hours: 1, matter: 'Northwind supply contract dispute', note: 'Deposition strategy memo', daysAgo: 1 },
  { who: 'Priya Raman', hours: 0.5, matter: 'Northwind trademark licence', note: 'Trademark clearance search', daysAgo: 0 },
];

/** The firm's work logged with this note (bills' time first, then {@link FIRM_WORK}). */
export function firmTime(note: string): FirmTime & { matter: string } {
  for (const b of FIRM_BILLS) for (const t of b.time) if (t.note === note) return { ...t, matter: b.matter };
  const found = FIRM_WORK.find((w) => w.note === note);
  if (!found) throw new Error(`no time logged as "${note}"`);
  return found;
}

/** The time on the draft bills, with the matter it was spent on: logged and on a bill, but not billed yet. */
export function draftTime(): Array<FirmTime & { matter: string }> {
  return FIRM_BILLS.filter((b) => b.state === 'draft').flatMap((b) => b.time.map((t) => ({ ...t, matter: b.matter })));
}

/** A bill by number. */
export function firmBill(number: string): FirmBill {
  const found = FIRM_BILLS.find((b) => b.number === number);
  if (!found) throw new Error(`no firm bill ${number}`);
  return found;
}

/** Money a client put in the firm's trust account (IOLTA) for one of their matters. */
export interface FirmTrustDeposit {
  client: string;
  matter: string;
  amount: number;
  daysAgo: number;
  note: string;
  source: string;
}

/**
 * Deposits into trust, each held for its client's matter. What a bill takes from trust ({@link FirmPayment} `trust`)
 * leaves it for the operating account; what is left is each matter's trust balance ({@link trustBalances}).
 */
export const FIRM_TRUST_DEPOSITS: readonly FirmTrustDeposit[] = [
  { client: STORY.client.name, matter: STORY.matter, amount: 7500, daysAgo: 125, note: 'Retainer deposit', source: 'Wire' },
  {
    client: 'Eleanor Vance',
    matter: 'Vance divorce and custody',
    amount: 5000,
    daysAgo: 60,
    note: 'Retainer deposit',
    source: 'Check 1187',
  },
];

/** Each matter's money in trust: its deposits less what its bills took from trust. */
export function trustBalances(): Map<string, number> {
  const held = new Map<string, number>();
  for (const d of FIRM_TRUST_DEPOSITS) held.set(d.matter, cents((held.get(d.matter) ?? 0) + d.amount));
  for (const b of FIRM_BILLS)
    for (const p of b.payments) if (p.by === 'trust' && !p.voided) held.set(b.matter, cents((held.get(b.matter) ?? 0) - p.amount));
  return held;
}
