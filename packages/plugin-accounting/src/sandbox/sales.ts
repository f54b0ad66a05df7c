import { ACCT, addMonths, base, CUSTOMER_CLASS, ITEM, type Json, type Ref } from './company.js';
import { AUTHORED_TODAY, addDays } from './dates.js';
import { type BookHelpers, byId, type Lists, round2, USD } from './txn-kit.js';

// The seeded sales, January to June 2025: 40 invoices (most paid, some partly, some overdue), the client payments and
// the deposits of the checks (plus monthly interest), walk-in sales receipts, a refund, credit memos and estimates.

export function sales(lists: Lists, h: BookHelpers) {
  const { ref, account, customer, method, termDays, nextId, salesLine, withSubtotal, receipt } = h;
  // ---- sales: invoices and the payments, deposits and credits around them ----
  const Invoice: Json[] = [];
  const Payment: Json[] = [];
  const billed = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const date = addDays('2025-01-03', Math.round(i * 4.3));
    const customerId = String(((i * 7) % 15) + 1);
    const classId = CUSTOMER_CLASS[customerId] as string;
    const lines: Json[] = [];
    const add = (itemId: string, qty: number) => lines.push(salesLine(lines.length + 1, itemId, qty, classId, date));
    if (classId === '1') {
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
      DueDate: addDays(date, termDays(lists.Customer, customerId, 'SalesTermRef')),
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

  const SalesReceipt: Json[] = (
    [
      ['10', '2025-01-21', [[ITEM.consult, 1]], '3'],
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
      ['4', '2025-04-15', [[ITEM.consult, 1]], '3'],
      ['2', '2025-06-03', [[ITEM.consult, 1]], '4'],
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
      ['3', '2025-03-14', ITEM.partner, 1],
      ['7', '2025-05-09', ITEM.associate, 1],
    ] as Array<[string, string, string, number]>
  ).map(([c, date, item, qty], i) => {
    const memo = receipt(c, date, [[item, qty]], '1');
    delete memo.PaymentMethodRef;
    delete memo.DepositToAccountRef;
    return {
      ...base(nextId('CreditMemo'), date, 15),
      DocNumber: `CM-${i + 1}`,
      ...memo,
      Balance: memo.TotalAmt,
      RemainingCredit: memo.TotalAmt,
      PrivateNote: 'Courtesy discount',
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
