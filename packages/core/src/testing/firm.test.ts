import { describe, expect, it } from 'vitest';
import {
  billBalance,
  billPaid,
  billTotal,
  FIRM,
  FIRM_BILLS,
  FIRM_CALLS,
  FIRM_CLIENTS,
  FIRM_LEADS,
  FIRM_MARKETING_LINES,
  FIRM_MATTERS,
  FIRM_PEOPLE,
  FIRM_TRUST_DEPOSITS,
  firmCaller,
  firmCallers,
  firmPersonNamed,
  STORY,
  trustBalances,
} from './firm.js';

// The firm module is the one story every sandbox projects: these are the facts it must hold on its own before any
// emulator uses it (the cross-application checks are apps/gateway/src/firm/firm-invariants.test.ts).

describe('the firm module', () => {
  it('gives everyone a number of their own, all in the fictional 555-0100–0199 range', () => {
    const numbers = [
      FIRM.mainLine,
      FIRM.oaklandLine,
      ...FIRM_PEOPLE.map((p) => p.phone),
      ...FIRM_MARKETING_LINES.map((l) => l.number),
      ...FIRM_CLIENTS.map((c) => c.phone),
      ...FIRM_LEADS.map((l) => l.phone),
    ];
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const number of numbers) expect(number).toMatch(/^\+1\d{3}55501\d{2}$/);
    const emails = [...FIRM_PEOPLE, ...FIRM_CLIENTS, ...FIRM_LEADS].map((p) => p.email);
    expect(new Set(emails).size).toBe(emails.length);
    for (const email of emails) expect(email).toMatch(/@[a-z]+\.example$|@example\.(com|net)$/);
  });

  it('tells calls of people it knows, on its own lines, by people of the firm, newest this morning from a new lead', () => {
    for (const call of FIRM_CALLS) {
      expect(() => firmCaller(call.who)).not.toThrow();
      expect(FIRM_MARKETING_LINES.map((l) => l.number)).toContain(call.line);
      if (call.agent) expect(() => firmPersonNamed(call.agent as string)).not.toThrow();
      if (call.matter) expect(FIRM_MATTERS.map((m) => m.title)).toContain(call.matter);
      expect(call.time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
      expect(firmCaller(call.who).sinceDaysAgo).toBeGreaterThanOrEqual(call.daysAgo);
    }
    const newest = [...FIRM_CALLS].sort((a, b) => a.daysAgo - b.daysAgo || b.time.localeCompare(a.time))[0];
    expect(newest).toMatchObject({ daysAgo: 0, answer: 'voicemail' });
    expect(firmCaller(newest?.who as string).lead).toMatchObject({ createdDaysAgo: 0, status: 'pnc' });
    const yesterday = FIRM_CALLS.filter((c) => c.daysAgo === STORY.calledDaysAgo && c.answer === 'answered');
    expect(yesterday.map((c) => c.who)).toEqual([STORY.client.name]);
  });

  it('names each caller once: the clients with a matter (a company by its contact) and the leads', () => {
    const callers = firmCallers();
    expect(new Set(callers.map((c) => c.name)).size).toBe(callers.length);
    expect(callers.filter((c) => c.client).map((c) => c.client?.name)).toEqual(FIRM_MATTERS.map((m) => m.client));
    expect(firmCaller('Ava Lindstrom').client?.name).toBe('Northwind Traders');
    expect(FIRM_LEADS.filter((l) => l.createdDaysAgo === 0).length).toBeGreaterThanOrEqual(2);
  });

  it('bills client matters at each person’s rate, with what paid them, and keeps every matter’s trust at zero or more', () => {
    for (const bill of FIRM_BILLS) {
      expect(FIRM_MATTERS.find((m) => m.title === bill.matter)?.client, bill.number).toBe(bill.client);
      for (const t of bill.time) expect(firmPersonNamed(t.who).rate, `${bill.number}: ${t.who}`).toBeGreaterThan(0);
      expect(billPaid(bill)).toBeLessThanOrEqual(billTotal(bill));
      expect(bill.state === 'paid').toBe(bill.state !== 'draft' && billBalance(bill) === 0);
      if (bill.state === 'draft') expect(bill.payments).toEqual([]);
      expect(bill.issuedDaysAgo).toBeGreaterThanOrEqual(bill.dueDaysAgo);
    }
    expect(new Set(FIRM_BILLS.map((b) => b.number)).size).toBe(FIRM_BILLS.length);
    const story = FIRM_BILLS.find((b) => b.number === STORY.invoice.number);
    expect(story && [billTotal(story), billPaid(story)]).toEqual([STORY.invoice.amount, STORY.invoice.paid]);
    for (const deposit of FIRM_TRUST_DEPOSITS)
      expect(FIRM_MATTERS.find((m) => m.title === deposit.matter)?.client, deposit.matter).toBe(deposit.client);
    for (const [matter, held] of trustBalances()) expect(held, matter).toBeGreaterThanOrEqual(0);
  });
});
