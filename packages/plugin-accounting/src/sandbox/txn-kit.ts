import { ACCT, CUSTOMER_CLASS, type Entities, type Json, type Ref, refTo } from './company.js';

// What the seeded transactions are built with: references to the name lists, ids per entity, and the lines of sales
// forms (item lines with a subtotal) and of purchase forms (account-based expense lines).

export type Lists = Pick<
  Entities,
  'Account' | 'Customer' | 'Vendor' | 'Item' | 'Employee' | 'Class' | 'Department' | 'Term' | 'PaymentMethod'
>;

export const USD: Ref = { value: 'USD', name: 'United States Dollar' };
export const round2 = (n: number) => Math.round(n * 100) / 100;
export const byId = (list: Json[], id: string) => list.find((r) => r.Id === id) as Json;

export type BookHelpers = ReturnType<typeof bookHelpers>;

export function bookHelpers(lists: Lists) {
  const ref = (list: Json[], id: string) => refTo(byId(list, id));
  const account = (id: string) => ref(lists.Account, id);
  const customer = (id: string) => ref(lists.Customer, id);
  const vendor = (id: string) => ref(lists.Vendor, id);
  const klass = (id: string) => ref(lists.Class, id);
  const method = (id: string) => ref(lists.PaymentMethod, id);
  const termDays = (list: Json[], id: string, field: string) =>
    Number(byId(lists.Term, String((byId(list, id)[field] as Ref).value)).DueDays);
  const ids = new Map<string, number>();
  const nextId = (entity: string) => {
    const n = (ids.get(entity) ?? 0) + 1;
    ids.set(entity, n);
    return String(n);
  };

  const salesLine = (n: number, itemId: string, qty: number, classId: string, date: string): Json => {
    const item = byId(lists.Item, itemId);
    const price = Number(item.UnitPrice);
    return {
      Id: String(n),
      LineNum: n,
      Description: String(item.Description),
      Amount: round2(price * qty),
      DetailType: 'SalesItemLineDetail',
      SalesItemLineDetail: {
        ItemRef: refTo(item),
        ClassRef: klass(classId),
        UnitPrice: price,
        Qty: qty,
        ItemAccountRef: item.IncomeAccountRef,
        TaxCodeRef: { value: 'NON' },
        ServiceDate: date,
      },
    };
  };
  const withSubtotal = (lines: Json[]) => {
    const total = round2(lines.reduce((sum, l) => sum + Number(l.Amount), 0));
    return { lines: [...lines, { Amount: total, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} }], total };
  };
  const expenseLine = (n: number, accountId: string, amount: number, description: string, customerId?: string, classId?: string): Json => ({
    Id: String(n),
    Description: description,
    Amount: amount,
    DetailType: 'AccountBasedExpenseLineDetail',
    AccountBasedExpenseLineDetail: {
      AccountRef: account(accountId),
      BillableStatus: customerId ? 'Billable' : 'NotBillable',
      TaxCodeRef: { value: 'NON' },
      ...(customerId ? { CustomerRef: customer(customerId) } : {}),
      ...(classId ? { ClassRef: klass(classId) } : {}),
    },
  });

  const receipt = (customerId: string, date: string, items: Array<[string, number]>, methodId: string, extra: Json = {}): Json => {
    const { lines, total } = withSubtotal(
      items.map(([itemId, qty], n) => salesLine(n + 1, itemId, qty, CUSTOMER_CLASS[customerId] as string, date)),
    );
    return {
      TxnDate: date,
      CustomerRef: customer(customerId),
      CurrencyRef: USD,
      Line: lines,
      TxnTaxDetail: { TotalTax: 0 },
      TotalAmt: total,
      PaymentMethodRef: method(methodId),
      DepositToAccountRef: account(ACCT.checking),
      ...extra,
    };
  };
  return { ref, account, customer, vendor, klass, method, termDays, nextId, salesLine, withSubtotal, expenseLine, receipt };
}
