import { FIRM_BILLS } from '@portico/core/testing/emulator';
import { ACCT, addMonths, base, CUSTOMER_CLASS, ITEM, type Json, type Ref } from './company.js';
import { AUTHORED_TODAY, addDays } from './dates.js';
import { type BookHelpers, byId, type Lists, round2, USD } from './txn-kit.js';

// The seeded purchases and books, January to June 2025: vendor bills and their payments (some open, one overdue), a
// vendor credit, card, check and cash expenses, purchase orders, transfers, payroll and depreciation journal entries
// and the staff's time on client matters (`invoices` gives the matters).

export function purchases(lists: Lists, h: BookHelpers, invoices: Json[]) {
  const { ref, account, customer, vendor, klass, termDays, nextId, expenseLine } = h;
  const Invoice = invoices;
  // ---- purchases: bills and their payments, card and check expenses, purchase orders ----
  const Bill: Json[] = [];
  const BillPayment: Json[] = [];
  const bills: Array<[string, string, string, number, string, string?, string?]> = [];
  for (let m = 1; m <= 6; m++) {
    bills.push(['1', `2025-0${m}-01`, ACCT.rent, 3800, `Office lease, ${m}/2025`]);
    bills.push(['2', `2025-0${m}-05`, ACCT.research, 389, 'Westlaw PRO subscription']);
  }
  bills.push(
    ['3', '2025-01-10', ACCT.insurance, 5400, 'Professional liability premium, 2025'],
    ['4', '2025-02-18', ACCT.caseCosts, 640, 'Deposition transcript', '8', '3'],
  );
  bills.push(
    ['8', '2025-03-03', ACCT.caseCosts, 435, 'First appearance fee', '6', '1'],
    ['5', '2025-04-08', ACCT.caseCosts, 3500, 'Expert witness report', '6', '1'],
  );
  bills.push(['7', '2025-02-12', ACCT.utilities, 412.18, 'Electricity'], ['7', '2025-04-11', ACCT.utilities, 388.4, 'Electricity']);
  bills.push(
    ['4', '2025-05-21', ACCT.caseCosts, 880, 'Deposition transcript', '9', '1'],
    ['7', '2025-06-12', ACCT.utilities, 455.72, 'Electricity'],
  );
  bills.sort((a, b) => a[1].localeCompare(b[1]));
  for (const [vendorId, date, accountId, amount, description, customerId, classId] of bills) {
    const id = nextId('Bill');
    const bill: Json = {
      ...base(id, date, 9),
      DocNumber: `${String(byId(lists.Vendor, vendorId).AcctNum ?? 'INV')}-${date.slice(5, 7)}${date.slice(8)}`,
      TxnDate: date,
      DueDate: addDays(date, termDays(lists.Vendor, vendorId, 'TermRef')),
      VendorRef: vendor(vendorId),
      APAccountRef: account(ACCT.ap),
      SalesTermRef: byId(lists.Vendor, vendorId).TermRef,
      CurrencyRef: USD,
      Line: [expenseLine(1, accountId, amount, description, customerId, classId)],
      TotalAmt: amount,
      Balance: amount,
      LinkedTxn: [] as Json[],
    };
    Bill.push(bill);
    if (vendorId === '5' || date >= '2025-05-20') continue;
    const payDate = addDays(date, Math.min(20, Math.max(5, termDays(lists.Vendor, vendorId, 'TermRef'))));
    const byCard = vendorId === '2';
    const paymentId = nextId('BillPayment');
    BillPayment.push({
      ...base(paymentId, payDate, 13),
      TxnDate: payDate,
      DocNumber: byCard ? undefined : String(5001 + BillPayment.length),
      VendorRef: vendor(vendorId),
      APAccountRef: account(ACCT.ap),
      PayType: byCard ? 'CreditCard' : 'Check',
      ...(byCard
        ? { CreditCardPayment: { CCAccountRef: account(ACCT.card) } }
        : { CheckPayment: { BankAccountRef: account(ACCT.checking), PrintStatus: 'NotSet' } }),
      TotalAmt: amount,
      CurrencyRef: USD,
      Line: [{ Amount: amount, LinkedTxn: [{ TxnId: id, TxnType: 'Bill' }] }],
    });
    bill.Balance = 0;
    (bill.LinkedTxn as Json[]).push({ TxnId: paymentId, TxnType: 'BillPayment' });
  }
  for (const payment of BillPayment) if (payment.DocNumber === undefined) delete payment.DocNumber;

  const VendorCredit: Json[] = [
    {
      ...base(nextId('VendorCredit'), '2025-03-20', 12),
      DocNumber: 'WL-CR-0320',
      TxnDate: '2025-03-20',
      VendorRef: vendor('2'),
      APAccountRef: account(ACCT.ap),
      CurrencyRef: USD,
      Line: [expenseLine(1, ACCT.research, 50, 'Service outage credit')],
      TotalAmt: 50,
      Balance: 50,
    },
  ];

  const purchases: Array<[string, string, string, string, number, string, string?]> = [
    ['2025-01-14', 'CreditCard', '6', ACCT.supplies, 186.45, 'Toner, paper, binders'],
    ['2025-02-03', 'Check', '8', ACCT.caseCosts, 435, 'Complaint filing fee', '9'],
    ['2025-02-20', 'CreditCard', '', ACCT.meals, 148.6, 'Client lunch, Presidio Robotics'],
    ['2025-03-11', 'CreditCard', '6', ACCT.supplies, 92.3, 'Postage and envelopes'],
    ['2025-04-17', 'Check', 'E1', ACCT.travel, 212, 'Mileage to Oakland hearing'],
    ['2025-05-06', 'CreditCard', '6', ACCT.supplies, 241.1, 'Monitor and cables'],
  ];
  for (let m = 1; m <= 6; m++) purchases.push([addMonths(`2025-0${m}-01`, 1, -1), 'Cash', '', ACCT.bankCharges, 35, 'Monthly account fee']);
  purchases.sort((a, b) => a[0].localeCompare(b[0]));
  const Purchase: Json[] = purchases.map(([date, type, payee, accountId, amount, description, customerId], i) => ({
    ...base(nextId('Purchase'), date, 12),
    TxnDate: date,
    PaymentType: type,
    AccountRef: account(type === 'CreditCard' ? ACCT.card : ACCT.checking),
    ...(type === 'Check' ? { DocNumber: String(4101 + i) } : {}),
    ...(payee.startsWith('E')
      ? {
          EntityRef: {
            ...ref(lists.Employee, payee.slice(1)),
            name: String(byId(lists.Employee, payee.slice(1)).DisplayName),
            type: 'Employee',
          },
        }
      : payee
        ? { EntityRef: { ...vendor(payee), type: 'Vendor' } }
        : {}),
    Credit: false,
    CurrencyRef: USD,
    Line: [expenseLine(1, accountId, amount, description, customerId, customerId ? CUSTOMER_CLASS[customerId] : undefined)],
    TotalAmt: amount,
  }));
  const PurchaseOrder: Json[] = [
    ['4', '2025-04-02', ACCT.caseCosts, 880, 'Deposition transcript, Pinnacle matter', 'Closed'],
    ['6', '2025-06-16', ACCT.furniture, 1280, 'Two ergonomic chairs', 'Open'],
  ].map(([v, date, a, amount, description, status], i) => ({
    ...base(nextId('PurchaseOrder'), String(date), 12),
    DocNumber: `PO-${301 + i}`,
    TxnDate: date,
    VendorRef: vendor(String(v)),
    APAccountRef: account(ACCT.ap),
    POStatus: status,
    EmailStatus: 'NotSet',
    CurrencyRef: USD,
    Line: [expenseLine(1, String(a), Number(amount), String(description))],
    TotalAmt: amount,
  }));

  // ---- banking and the general journal ----
  const Transfer: Json[] = (
    [
      ['2025-03-31', ACCT.checking, ACCT.savings, 10000, 'Move reserve to money market'],
      ['2025-04-30', ACCT.checking, ACCT.card, 600, 'Card payment'],
      ['2025-05-30', ACCT.savings, ACCT.checking, 2500, 'Cover June payroll'],
    ] as Array<[string, string, string, number, string]>
  ).map(([date, from, to, amount, note]) => ({
    ...base(nextId('Transfer'), date, 16),
    TxnDate: date,
    FromAccountRef: account(from),
    ToAccountRef: account(to),
    Amount: amount,
    PrivateNote: note,
    CurrencyRef: USD,
  }));

  const JournalEntry: Json[] = [];
  const journal = (date: string, note: string, lines: Array<[string, number, string?]>) => {
    const id = nextId('JournalEntry');
    JournalEntry.push({
      ...base(id, date, 18),
      DocNumber: `JE-${id}`,
      TxnDate: date,
      PrivateNote: note,
      Adjustment: false,
      CurrencyRef: USD,
      Line: lines.map(([accountId, amount, description], n) => ({
        Id: String(n),
        Description: description ?? note,
        Amount: Math.abs(amount),
        DetailType: 'JournalEntryLineDetail',
        JournalEntryLineDetail: { PostingType: amount >= 0 ? 'Debit' : 'Credit', AccountRef: account(accountId) },
      })),
      TotalAmt: round2(lines.filter(([, amount]) => amount > 0).reduce((sum, [, amount]) => sum + amount, 0)),
    });
  };
  journal('2025-01-01', 'Opening balances', [
    [ACCT.checking, 42000],
    [ACCT.furniture, 36000],
    [ACCT.prepaid, 1800],
    [ACCT.accumulatedDepreciation, -6000],
    [ACCT.loan, -20000],
    [ACCT.capital, -40000],
    [ACCT.openingEquity, -13800],
  ]);
  // what the firm's bills took from the clients' trust funds (FIRM_BILLS): out of trust, no longer owed to the client
  for (const bill of FIRM_BILLS) {
    for (const p of bill.payments) {
      if (p.by !== 'trust' || p.voided) continue;
      journal(addDays(AUTHORED_TODAY, -p.daysAgo), `Trust funds applied to invoice ${bill.number}`, [
        [ACCT.trustLiability, p.amount, `${bill.client}: ${bill.matter}`],
        [ACCT.trust, -p.amount, `${bill.client}: ${bill.matter}`],
      ]);
    }
  }
  for (let m = 1; m <= 6; m++) {
    const lines: Array<[string, number, string?]> = [
      [ACCT.payrollExpense, 9000, 'Gross wages and employer taxes'],
      [ACCT.checking, m === 1 ? -7300 : -9000, 'Net pay and prior month tax deposit'],
      [ACCT.payroll, -1700, 'Taxes withheld and employer taxes'],
    ];
    if (m > 1) lines.splice(1, 0, [ACCT.payroll, 1700, 'Prior month tax deposit']);
    journal(addMonths(`2025-0${m}-01`, 1, -1), `Payroll ${m}/2025`, lines);
    if (m % 3 === 0)
      journal(addMonths(`2025-0${m}-01`, 1, -1), `Depreciation Q${m / 3} 2025`, [
        [ACCT.depreciation, 1800],
        [ACCT.accumulatedDepreciation, -1800],
      ]);
  }

  const TimeActivity: Json[] = Array.from({ length: 12 }, (_, i) => {
    // the firm's timekeepers on the payroll: the associate and the paralegal, at their rates
    const employee = byId(lists.Employee, String((i % 2) + 1));
    const invoice = Invoice[i * 3] as Json;
    const customerId = (invoice.CustomerRef as Ref).value;
    const date = String(invoice.TxnDate) > '2025-01-06' ? addDays(String(invoice.TxnDate), -3) : '2025-01-02';
    return {
      ...base(nextId('TimeActivity'), date, 17),
      TxnDate: date,
      NameOf: 'Employee',
      EmployeeRef: { value: employee.Id, name: employee.DisplayName },
      CustomerRef: customer(customerId),
      ItemRef: ref(lists.Item, i % 2 === 0 ? ITEM.associate : ITEM.paralegal),
      ClassRef: klass(CUSTOMER_CLASS[customerId] as string),
      BillableStatus: date < '2025-06-01' ? 'HasBeenBilled' : 'Billable',
      Taxable: false,
      HourlyRate: employee.BillRate,
      Hours: 1 + (i % 5),
      Minutes: (i % 2) * 30,
      Description: ['Draft motion', 'Research memo', 'Prepare exhibits', 'Client call', 'Review discovery', 'Draft agreement'][i % 6],
    };
  });

  return { Bill, BillPayment, VendorCredit, Purchase, PurchaseOrder, Transfer, JournalEntry, TimeActivity };
}
