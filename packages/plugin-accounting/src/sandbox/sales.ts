import { FIRM_BILLS, FIRM_MATTERS, FIRM_TRUST_DEPOSITS, type FirmBill, firmPersonNamed } from '@portico/core/testing/emulator';
import { ACCT, addMonths, base, CUSTOMER_CLASS, ITEM, type Json, type Ref } from './company.js';
import { AUTHORED_TODAY, addDays } from './dates.js';
import { type BookHelpers, byId, type Lists, round2, USD } from './txn-kit.js';

// The seeded sales, January to June 2025: 40 invoices (most paid, some partly, some overdue), the client payments and
// the deposits of the checks (plus monthly interest), walk-in sales receipts, a refund, credit memos and estimates.
// The clients whose matters Clio keeps (@portico/core/testing's FIRM_MATTERS) are invoiced for their Clio bills only:
// each issued bill of FIRM_BILLS is the invoice with its number, its lines at each person's rate, its due date and
// what paid it (trust funds, a card, a courtesy credit); the other invoices are the smaller clients'.

/** The firm's issued bills, by invoice number. */
const ISSUED = new Map(FIRM_BILLS.filter((b) => b.state !== 'draft').map((b) => [b.number, b]));

/** A firm bill's lines: each person's time at their rate (their role's service item), then the expenses. */
function billLines(bill: FirmBill, classId: string, date: string, salesLine: BookHelpers['salesLine']): Json[] {
  const item = (role: string) => (role === 'partner' ? ITEM.partner : role === 'associate' ? ITEM.associate : ITEM.paralegal);
  const lines = bill.time.map((t, i) => {
    const person = firmPersonNamed(t.who);
    const line = salesLine(i + 1, item(person.role), t.hours, classId, date);
    const detail = line.SalesItemLineDetail as Json;
    detail.UnitPrice = person.rate;
    return { ...line, Description: `${person.name}: ${t.note}`, Amount: round2(person.rate * t.hours) };
  });
  bill.expenses.forEach((e, i) => {
    const line = salesLine(lines.length + 1, ITEM.filing, 1, classId, date);
    (line.SalesItemLineDetail as Json).UnitPrice = e.amount;
    lines.push({ ...line, Description: e.note, Amount: e.amount });
    void i;
  });
  return lines;
}

export function sales(lists: Lists, h: BookHelpers) {
  const { ref, account, customer, method, termDays, nextId, salesLine, withSubtotal, receipt } = h;
  // ---- sales: invoices and the payments, deposits and credits around them ----
  const Invoice: Json[] = [];
  const Payment: Json[] = [];
  const billed = new Set<string>();
  const customerOf = (name: string) => String(lists.Customer.find((c) => c.DisplayName === name)?.Id);
  const clioClients = new Set(FIRM_MATTERS.map((m) => customerOf(m.client)));
  const others = lists.Customer.map((c) => String(c.Id)).filter((id) => !clioClients.has(id));
  const credits: Array<{ invoice: Json; amount: number; date: string }> = [];
  for (let i = 0; i < 40; i++) {
    const firm = ISSUED.get(String(1001 + i));
    const date = firm ? addDays(AUTHORED_TODAY, -firm.issuedDaysAgo) : addDays('2025-01-03', Math.round(i * 4.3));
    let customerId = firm ? customerOf(firm.client) : String(((i * 7) % 15) + 1);
    if (!firm && clioClients.has(customerId)) customerId = others[i % others.length] as string;
    const classId = CUSTOMER_CLASS[customerId] as string;
    const lines: Json[] = [];
    const add = (itemId: string, qty: number) => lines.push(salesLine(lines.length + 1, itemId, qty, classId, date));
    if (firm) {
      lines.push(...billLines(firm, classId, date, salesLine));
    } else if (classId === '1') {
      add(ITEM.partner, 1 + (i % 4) + (i % 2) * 0.5);
      add(ITEM.associate, 3 + ((i * 5) % 7));
      add(ITEM.paralegal, 2 + (i % 5));
      if (i % 3 === 0) add(ITEM.filing, 1);
    } else if (classId === '2') {
      if (!billed.has(customerId)) add(ITEM.llc, 1);
      add(ITEM.partner, 1 + (i % 3));
      add(ITEM.associate, 2 + (i % 4) + 0.5);
    } else if (i % 2 === 0) {
      add(ITEM.estate, 1);
      add(ITEM.copies, 120);
    } else {
      add(ITEM.consult, 1);
      add(ITEM.paralegal, 2.5);
    }
    billed.add(customerId);
    const { lines: all, total } = withSubtotal(lines);
    const id = nextId('Invoice');
    const invoice: Json = {
      ...base(id, date, 10),
      DocNumber: String(1001 + i),
      TxnDate: date,
      DueDate: firm ? addDays(AUTHORED_TODAY, -firm.dueDaysAgo) : addDays(date, termDays(lists.Customer, customerId, 'SalesTermRef')),
      CustomerRef: customer(customerId),
      DepartmentRef: ref(lists.Department, i % 3 === 2 ? '2' : '1'),
      SalesTermRef: byId(lists.Customer, customerId).SalesTermRef,
      BillEmail: byId(lists.Customer, customerId).PrimaryEmailAddr,
      CurrencyRef: USD,
      Line: all,
      TxnTaxDetail: { TotalTax: 0 },
      TotalAmt: total,
      Balance: total,
      EmailStatus: 'EmailSent',
      PrintStatus: 'NotSet',
      ApplyTaxAfterDiscount: false,
      LinkedTxn: [] as Json[],
      CustomerMemo: { value: 'Thank you for your business. Payment is due per the engagement letter.' },
    };
    Invoice.push(invoice);

    if (firm) {
      // what paid the bill: trust funds moved to operating, a card, a check; a courtesy credit (a credit memo below)
      for (const p of firm.payments) {
        if (p.voided) continue;
        const payDate = addDays(AUTHORED_TODAY, -p.daysAgo);
        if (p.by === 'credit') {
          credits.push({ invoice, amount: p.amount, date: payDate });
          continue;
        }
        const methodId = { trust: '4', card: '3', check: '2' }[p.by];
        const paymentId = nextId('Payment');
        Payment.push({
          ...base(paymentId, payDate, 14),
          TxnDate: payDate,
          CustomerRef: customer(customerId),
          DepositToAccountRef: account(methodId === '2' ? ACCT.undeposited : ACCT.checking),
          PaymentMethodRef: method(methodId),
          PaymentRefNum: p.by === 'trust' ? `TRUST-${invoice.DocNumber}` : `TX-${80410 + i}`,
          TotalAmt: p.amount,
          UnappliedAmt: 0,
          ProcessPayment: false,
          CurrencyRef: USD,
          ...(p.by === 'trust' ? { PrivateNote: 'Paid from the client’s trust funds' } : {}),
          Line: [{ Amount: p.amount, LinkedTxn: [{ TxnId: id, TxnType: 'Invoice' }], LineEx: { any: [] } }],
        });
        invoice.Balance = round2(Number(invoice.Balance) - p.amount);
        (invoice.LinkedTxn as Json[]).push({ TxnId: paymentId, TxnType: 'Payment' });
        invoice.MetaData = base(id, date, 10, payDate).MetaData;
      }
      continue;
    }

    const payDate = addDays(date, 10 + (i % 5) * 4);
    const unpaid = i % 9 === 4 || date > '2025-05-25' || payDate > AUTHORED_TODAY;
    if (unpaid) continue;
    const amount = i % 11 === 6 ? round2(total / 2) : total;
    const methodId = ['2', '4', '3', '2'][i % 4] as string;
    const paymentId = nextId('Payment');
    Payment.push({
      ...base(paymentId, payDate, 14),
      TxnDate: payDate,
      CustomerRef: customer(customerId),
      DepositToAccountRef: account(methodId === '2' ? ACCT.undeposited : ACCT.checking),
      PaymentMethodRef: method(methodId),
      PaymentRefNum: methodId === '2' ? String(2400 + i * 3) : `TX-${80410 + i}`,
      TotalAmt: amount,
      UnappliedAmt: 0,
      ProcessPayment: false,
      CurrencyRef: USD,
      Line: [{ Amount: amount, LinkedTxn: [{ TxnId: id, TxnType: 'Invoice' }], LineEx: { any: [] } }],
    });
    invoice.Balance = round2(total - amount);
    (invoice.LinkedTxn as Json[]).push({ TxnId: paymentId, TxnType: 'Payment' });
    invoice.MetaData = base(id, date, 10, payDate).MetaData;
  }

  // Checks collected in Undeposited Funds go to the bank twice a month; the last half of June is still undeposited.
  const Deposit: Json[] = [];
  const halves = new Map<string, Json[]>();
  for (const payment of Payment) {
    if ((payment.DepositToAccountRef as Ref).value !== ACCT.undeposited) continue;
    const date = String(payment.TxnDate);
    const end = Number(date.slice(8)) <= 15 ? `${date.slice(0, 8)}15` : addMonths(`${date.slice(0, 8)}01`, 1, -1);
    halves.set(end, [...(halves.get(end) ?? []), payment]);
  }
  for (const [date, payments] of [...halves].sort(([a], [b]) => a.localeCompare(b))) {
    if (date >= '2025-06-30') continue;
    const total = round2(payments.reduce((sum, p) => sum + Number(p.TotalAmt), 0));
    Deposit.push({
      ...base(nextId('Deposit'), date, 16),
      TxnDate: date,
      DepositToAccountRef: account(ACCT.checking),
      CurrencyRef: USD,
      PrivateNote: 'Client checks',
      Line: payments.map((p) => ({ Amount: p.TotalAmt, LinkedTxn: [{ TxnId: p.Id, TxnType: 'Payment', TxnLineId: '0' }] })),
      TotalAmt: total,
    });
  }
  for (let month = 1; month <= 6; month++) {
    const date = addMonths(`2025-0${month}-01`, 1, -1);
    const amount = round2(18.4 + month * 3.17);
    Deposit.push({
      ...base(nextId('Deposit'), date, 17),
      TxnDate: date,
      DepositToAccountRef: account(ACCT.savings),
      CurrencyRef: USD,
      Line: [
        { Id: '1', LineNum: 1, Amount: amount, DetailType: 'DepositLineDetail', DepositLineDetail: { AccountRef: account(ACCT.interest) } },
      ],
      TotalAmt: amount,
    });
  }

  // the clients' retainers, deposited into the trust account and owed back to them until a bill takes them
  for (const d of FIRM_TRUST_DEPOSITS) {
    const date = addDays(AUTHORED_TODAY, -d.daysAgo);
    Deposit.push({
      ...base(nextId('Deposit'), date, 11),
      TxnDate: date,
      DepositToAccountRef: account(ACCT.trust),
      CurrencyRef: USD,
      PrivateNote: `${d.note}: ${d.matter}`,
      Line: [
        {
          Id: '1',
          LineNum: 1,
          Amount: d.amount,
          DetailType: 'DepositLineDetail',
          DepositLineDetail: { Entity: customer(customerOf(d.client)), AccountRef: account(ACCT.trustLiability) },
        },
      ],
      TotalAmt: d.amount,
    });
  }

  const SalesReceipt: Json[] = (
    [
      ['11', '2025-01-21', [[ITEM.consult, 1]], '3'],
      ['12', '2025-02-11', [[ITEM.consult, 1]], '2'],
      [
        '15',
        '2025-03-19',
        [
          [ITEM.consult, 1],
          [ITEM.copies, 40],
        ],
        '1',
      ],
      ['5', '2025-04-15', [[ITEM.consult, 1]], '3'],
      ['9', '2025-06-03', [[ITEM.consult, 1]], '4'],
    ] as Array<[string, string, Array<[string, number]>, string]>
  ).map(([c, date, items, m], i) => ({
    ...base(nextId('SalesReceipt'), date, 15),
    DocNumber: `SR-${101 + i}`,
    ...receipt(c, date, items, m),
  }));
  const RefundReceipt: Json[] = [
    {
      ...base(nextId('RefundReceipt'), '2025-04-22', 15),
      DocNumber: 'RR-1',
      ...receipt('15', '2025-04-22', [[ITEM.consult, 1]], '2', { PrivateNote: 'Consultation fee refunded' }),
    },
  ];
  const CreditMemo: Json[] = (
    [
      // Bayview's discount on its lease review, not yet used (Clio holds the same credit)
      [customerOf('Bayview Properties'), addDays(AUTHORED_TODAY, -14), ITEM.consult, 1, 'Lease review discount'],
      ['7', '2025-05-09', ITEM.associate, 1, 'Courtesy discount'],
      // the courtesy credits applied to the firm's bills (Northwind's, on invoice 1034)
      ...credits.map((c): [string, string, string, number, string] => [
        String((c.invoice.CustomerRef as Ref).value),
        c.date,
        ITEM.consult,
        c.amount / 250,
        'Courtesy discount',
      ]),
    ] as Array<[string, string, string, number, string]>
  ).map(([c, date, item, qty, note], i) => {
    const memo = receipt(c, date, [[item, qty]], '1');
    delete memo.PaymentMethodRef;
    delete memo.DepositToAccountRef;
    const id = nextId('CreditMemo');
    const applied = i >= 2 ? (credits[i - 2] as (typeof credits)[number]) : undefined;
    if (applied) {
      applied.invoice.Balance = round2(Number(applied.invoice.Balance) - Number(memo.TotalAmt));
      (applied.invoice.LinkedTxn as Json[]).push({ TxnId: id, TxnType: 'CreditMemo' });
    }
    return {
      ...base(id, date, 15),
      DocNumber: `CM-${i + 1}`,
      ...memo,
      Balance: applied ? 0 : memo.TotalAmt,
      RemainingCredit: applied ? 0 : memo.TotalAmt,
      PrivateNote: note,
      ...(applied ? { LinkedTxn: [{ TxnId: String(applied.invoice.Id), TxnType: 'Invoice' }] } : {}),
    };
  });
  const Estimate: Json[] = (
    [
      [
        '13',
        '2025-05-27',
        [
          [ITEM.llc, 1],
          [ITEM.partner, 3],
        ],
        'Accepted',
      ],
      [
        '11',
        '2025-06-10',
        [
          [ITEM.partner, 4],
          [ITEM.associate, 10],
        ],
        'Pending',
      ],
      ['8', '2025-01-08', [[ITEM.estate, 1]], 'Closed'],
      [
        '5',
        '2025-02-24',
        [
          [ITEM.estate, 1],
          [ITEM.paralegal, 3],
        ],
        'Rejected',
      ],
    ] as Array<[string, string, Array<[string, number]>, string]>
  ).map(([c, date, items, status], i) => {
    const estimate = receipt(c, date, items, '1');
    delete estimate.PaymentMethodRef;
    delete estimate.DepositToAccountRef;
    return {
      ...base(nextId('Estimate'), date, 11),
      DocNumber: `E-${201 + i}`,
      ...estimate,
      TxnStatus: status,
      ExpirationDate: addDays(date, 30),
      EmailStatus: 'EmailSent',
    };
  });

  return { Invoice, Payment, Deposit, SalesReceipt, RefundReceipt, CreditMemo, Estimate };
}
