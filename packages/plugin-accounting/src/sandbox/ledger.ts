import { ACCT, type Entities, type Json, type Ref } from './company.js';
import { round2 } from './transactions.js';

// The general ledger behind the reports: every posting transaction turned into debits and credits, on either basis.
//
// - Accrual: invoices and credit memos post to A/R and income when issued, bills and vendor credits to A/P and
//   expenses when entered; payments and bill payments only clear A/R and A/P.
// - Cash: invoices, credit memos, bills and vendor credits post nothing; a payment recognises the income of the
//   invoices it pays (in proportion to the amount paid, line by line) on the day it is received, and a bill payment
//   the expenses of its bills on the day it is paid. Sales receipts, refunds, expenses, deposits, transfers and
//   journal entries post the same way on both bases.

export type Basis = 'Accrual' | 'Cash';

export interface Posting {
  date: string;
  accountId: string;
  /** Debit positive, credit negative. */
  amount: number;
  txnType: string;
  txnId: string;
  /** The entity the transaction is (`Invoice`, `BillPayment`…), for links. */
  entity: string;
  docNumber: string;
  /** The name on the transaction (customer, vendor or employee display name). */
  name: string;
  memo: string;
  customerId?: string;
  vendorId?: string;
  itemId?: string;
  qty?: number;
  classId?: string;
  departmentId?: string;
  /** A sales line's tax code is a taxable one (not `NON`): the sales tax reports count it as taxable sales. */
  taxable?: boolean;
  /** The other account of the transaction, or `-Split-` when there are several. */
  split: string;
}

type Line = Omit<Posting, 'date' | 'txnType' | 'txnId' | 'entity' | 'docNumber' | 'name' | 'split' | 'memo'> & { memo?: string };

const refValue = (ref: unknown) => (ref as Ref | undefined)?.value;
const refName = (ref: unknown) => (ref as Ref | undefined)?.name ?? '';
const lines = (txn: Json) => (txn.Line as Json[] | undefined) ?? [];

/**
 * Income lines of a sales form (item lines), signed: credit (negative) for sales, debit for refunds and credits. They
 * keep the form's location (department), also when a payment recognises them on the cash basis.
 */
function salesLines(txn: Json, sign: number, ratio = 1): Line[] {
  const customerId = refValue(txn.CustomerRef);
  const departmentId = refValue(txn.DepartmentRef);
  return lines(txn)
    .filter((l) => l.DetailType === 'SalesItemLineDetail')
    .map((l) => {
      const detail = l.SalesItemLineDetail as Json;
      const taxCode = refValue(detail.TaxCodeRef);
      return {
        ...(departmentId ? { departmentId } : {}),
        taxable: taxCode !== undefined && taxCode !== 'NON',
        accountId: String(refValue(detail.ItemAccountRef)),
        amount: sign * round2(Number(l.Amount) * ratio),
        memo: String(l.Description ?? ''),
        itemId: refValue(detail.ItemRef),
        qty: round2(Number(detail.Qty ?? 0) * ratio),
        classId: refValue(detail.ClassRef),
        ...(customerId ? { customerId } : {}),
      };
    });
}

/** Expense lines of a bill, expense or vendor credit, signed: debit for spending, credit for credits. */
function expenseLines(txn: Json, sign: number, vendorId: string | undefined, ratio = 1): Line[] {
  return lines(txn)
    .filter((l) => l.DetailType === 'AccountBasedExpenseLineDetail')
    .map((l) => {
      const detail = l.AccountBasedExpenseLineDetail as Json;
      const customerId = refValue(detail.CustomerRef);
      return {
        accountId: String(refValue(detail.AccountRef)),
        amount: sign * round2(Number(l.Amount) * ratio),
        memo: String(l.Description ?? ''),
        classId: refValue(detail.ClassRef),
        ...(customerId ? { customerId } : {}),
        ...(vendorId ? { vendorId } : {}),
      };
    });
}

/** Makes the lines of a share sum exactly to `total` (rounding goes to the last line). */
function settle(parts: Line[], total: number): Line[] {
  const sum = round2(parts.reduce((s, p) => s + p.amount, 0));
  const last = parts.at(-1);
  if (last && sum !== total) last.amount = round2(last.amount + total - sum);
  return parts;
}

const BILL_PAYMENT_TYPE: Record<string, string> = { Check: 'Bill Payment (Check)', CreditCard: 'Bill Payment (Credit Card)' };
const PURCHASE_TYPE: Record<string, string> = { Cash: 'Expense', Check: 'Check', CreditCard: 'Credit Card Expense' };

/** Every posting of the books on a basis, in date order. */
export function ledger(entities: Entities, basis: Basis): Posting[] {
  const accrual = basis === 'Accrual';
  const find = (entity: keyof Entities, id: string | undefined) => entities[entity].find((r) => r.Id === id);
  const accountName = (id: string) => String(find('Account', id)?.Name ?? id);
  const postings: Posting[] = [];
  const post = (entity: string, txnType: string, txn: Json, name: string, posted: Line[]) => {
    if (posted.length === 0) return;
    const accountsUsed = [...new Set(posted.map((p) => p.accountId))];
    for (const line of posted) {
      const others = accountsUsed.filter((a) => a !== line.accountId);
      postings.push({
        date: String(txn.TxnDate),
        txnType,
        txnId: String(txn.Id),
        entity,
        docNumber: String(txn.DocNumber ?? txn.PaymentRefNum ?? ''),
        name,
        split: others.length === 1 ? accountName(others[0] as string) : others.length === 0 ? '' : '-Split-',
        ...line,
        memo: line.memo ?? String(txn.PrivateNote ?? ''),
        departmentId: line.departmentId ?? refValue(txn.DepartmentRef),
        amount: round2(line.amount),
      });
    }
  };

  for (const inv of entities.Invoice) {
    if (!accrual) continue;
    const customerId = refValue(inv.CustomerRef);
    post('Invoice', 'Invoice', inv, refName(inv.CustomerRef), [
      { accountId: ACCT.ar, amount: Number(inv.TotalAmt), customerId },
      ...salesLines(inv, -1),
    ]);
  }
  for (const memo of entities.CreditMemo) {
    if (!accrual) continue;
    const customerId = refValue(memo.CustomerRef);
    post('CreditMemo', 'Credit Memo', memo, refName(memo.CustomerRef), [
      { accountId: ACCT.ar, amount: -Number(memo.TotalAmt), customerId },
      ...salesLines(memo, 1),
    ]);
  }
  for (const payment of entities.Payment) {
    const customerId = refValue(payment.CustomerRef);
    const credits: Line[] = accrual
      ? [{ accountId: ACCT.ar, amount: -Number(payment.TotalAmt), customerId }]
      : lines(payment).flatMap((l) => {
          const invoice = find('Invoice', String(((l.LinkedTxn as Json[])[0] as Json).TxnId)) as Json;
          return settle(salesLines(invoice, -1, Number(l.Amount) / Number(invoice.TotalAmt)), -Number(l.Amount));
        });
    post('Payment', 'Payment', payment, refName(payment.CustomerRef), [
      { accountId: String(refValue(payment.DepositToAccountRef)), amount: Number(payment.TotalAmt), customerId },
      ...credits,
    ]);
  }
  for (const receipt of entities.SalesReceipt) {
    post('SalesReceipt', 'Sales Receipt', receipt, refName(receipt.CustomerRef), [
      {
        accountId: String(refValue(receipt.DepositToAccountRef)),
        amount: Number(receipt.TotalAmt),
        customerId: refValue(receipt.CustomerRef),
      },
      ...salesLines(receipt, -1),
    ]);
  }
  for (const refund of entities.RefundReceipt) {
    post('RefundReceipt', 'Refund', refund, refName(refund.CustomerRef), [
      {
        accountId: String(refValue(refund.DepositToAccountRef)),
        amount: -Number(refund.TotalAmt),
        customerId: refValue(refund.CustomerRef),
      },
      ...salesLines(refund, 1),
    ]);
  }
  for (const deposit of entities.Deposit) {
    const credits: Line[] = lines(deposit).map((l) => {
      const linked = (l.LinkedTxn as Json[] | undefined)?.[0];
      if (linked) {
        const payment = find('Payment', String(linked.TxnId));
        return { accountId: ACCT.undeposited, amount: -Number(l.Amount), customerId: refValue(payment?.CustomerRef) };
      }
      return { accountId: String(refValue((l.DepositLineDetail as Json).AccountRef)), amount: -Number(l.Amount) };
    });
    post('Deposit', 'Deposit', deposit, '', [
      { accountId: String(refValue(deposit.DepositToAccountRef)), amount: Number(deposit.TotalAmt) },
      ...credits,
    ]);
  }
  for (const bill of entities.Bill) {
    if (!accrual) continue;
    const vendorId = refValue(bill.VendorRef);
    post('Bill', 'Bill', bill, refName(bill.VendorRef), [
      { accountId: ACCT.ap, amount: -Number(bill.TotalAmt), vendorId },
      ...expenseLines(bill, 1, vendorId),
    ]);
  }
  for (const credit of entities.VendorCredit) {
    if (!accrual) continue;
    const vendorId = refValue(credit.VendorRef);
    post('VendorCredit', 'Vendor Credit', credit, refName(credit.VendorRef), [
      { accountId: ACCT.ap, amount: Number(credit.TotalAmt), vendorId },
      ...expenseLines(credit, -1, vendorId),
    ]);
  }
  for (const payment of entities.BillPayment) {
    const vendorId = refValue(payment.VendorRef);
    const source = refValue(
      (payment.CheckPayment as Json | undefined)?.BankAccountRef ?? (payment.CreditCardPayment as Json | undefined)?.CCAccountRef,
    );
    const debits: Line[] = accrual
      ? [{ accountId: ACCT.ap, amount: Number(payment.TotalAmt), vendorId }]
      : lines(payment).flatMap((l) => {
          const bill = find('Bill', String(((l.LinkedTxn as Json[])[0] as Json).TxnId)) as Json;
          return settle(expenseLines(bill, 1, vendorId, Number(l.Amount) / Number(bill.TotalAmt)), Number(l.Amount));
        });
    post('BillPayment', BILL_PAYMENT_TYPE[String(payment.PayType)] ?? 'Bill Payment', payment, refName(payment.VendorRef), [
      { accountId: String(source), amount: -Number(payment.TotalAmt), vendorId },
      ...debits,
    ]);
  }
  for (const purchase of entities.Purchase) {
    const entity = purchase.EntityRef as (Ref & { type?: string }) | undefined;
    const vendorId = entity?.type === 'Vendor' ? entity.value : undefined;
    post('Purchase', PURCHASE_TYPE[String(purchase.PaymentType)] ?? 'Expense', purchase, entity?.name ?? '', [
      { accountId: String(refValue(purchase.AccountRef)), amount: -Number(purchase.TotalAmt), ...(vendorId ? { vendorId } : {}) },
      ...expenseLines(purchase, 1, vendorId),
    ]);
  }
  for (const transfer of entities.Transfer) {
    post('Transfer', 'Transfer', transfer, '', [
      { accountId: String(refValue(transfer.ToAccountRef)), amount: Number(transfer.Amount) },
      { accountId: String(refValue(transfer.FromAccountRef)), amount: -Number(transfer.Amount) },
    ]);
  }
  for (const entry of entities.JournalEntry) {
    post(
      'JournalEntry',
      'Journal Entry',
      entry,
      '',
      lines(entry).map((l) => {
        const detail = l.JournalEntryLineDetail as Json;
        return {
          accountId: String(refValue(detail.AccountRef)),
          amount: (detail.PostingType === 'Debit' ? 1 : -1) * Number(l.Amount),
          memo: String(l.Description ?? ''),
        };
      }),
    );
  }
  return postings.sort((a, b) => a.date.localeCompare(b.date) || Number(a.txnId) - Number(b.txnId));
}

// ---- accounts -------------------------------------------------------------------------------------------------------

const DEBIT_NATURE = new Set(['Asset', 'Expense']);

/** +1 for accounts whose balance is a debit (assets, expenses), -1 for the others. */
export const nature = (account: Json) => (DEBIT_NATURE.has(String(account.Classification)) ? 1 : -1);
export const isBalanceSheet = (account: Json) => ['Asset', 'Liability', 'Equity'].includes(String(account.Classification));

/** The balance of an account (in its natural sign) over the postings given. */
export function balance(postings: readonly Posting[], account: Json, filter: (p: Posting) => boolean = () => true): number {
  let sum = 0;
  for (const p of postings) if (p.accountId === account.Id && filter(p)) sum += p.amount;
  return round2(sum * nature(account));
}
