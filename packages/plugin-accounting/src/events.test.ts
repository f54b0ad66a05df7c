import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normaliseQuickBooks, verifyQuickBooks } from './events.js';

const TOKEN = 'verifier-token';
const legacy = {
  eventNotifications: [
    {
      realmId: '9130350000000000',
      dataChangeEvent: {
        entities: [
          { name: 'Invoice', id: '130', operation: 'Update', lastUpdated: '2026-11-28T10:00:00.000Z' },
          { name: 'BillPayment', id: '42', operation: 'Create', lastUpdated: '2026-11-28T10:05:00.000Z' },
        ],
      },
    },
  ],
};
const delivery = (body: string, headers: Record<string, string>) => ({ body: Buffer.from(body), headers, query: {} });

describe('QuickBooks deliveries', () => {
  it('verifies the base64 HMAC-SHA256 of the body with the verifier token, and reads its newest time', () => {
    const body = JSON.stringify(legacy);
    const signature = createHmac('sha256', TOKEN).update(body).digest('base64');
    expect(verifyQuickBooks(delivery(body, { 'intuit-signature': signature }), TOKEN)).toEqual({
      outcome: 'signed',
      signedAt: Date.parse('2026-11-28T10:05:00.000Z'),
      replayKey: signature,
    });
    expect(verifyQuickBooks(delivery(body, { 'intuit-signature': signature }), 'another-token').outcome).toBe('forged');
    expect(verifyQuickBooks(delivery(`${body}\n`, { 'intuit-signature': signature }), TOKEN).outcome).toBe('forged');
    expect(verifyQuickBooks(delivery(body, {}), TOKEN).outcome).toBe('forged');
  });

  it('makes one event per entity change, in either format; a bill payment made is bill.paid', () => {
    const events = 'events' in normaliseQuickBooks(legacy) ? (normaliseQuickBooks(legacy) as { events: unknown[] }).events : [];
    expect(events).toEqual([
      {
        type: 'invoice.updated',
        upstreamId: '9130350000000000:Invoice:130:Update:2026-11-28T10:00:00.000Z',
        recordId: '130',
        occurredAt: '2026-11-28T10:00:00.000Z',
        payload: { realmId: '9130350000000000', name: 'Invoice', id: '130', operation: 'Update', lastUpdated: '2026-11-28T10:00:00.000Z' },
      },
      expect.objectContaining({ type: 'bill.paid', recordId: '42' }),
    ]);
    const cloud = [
      {
        specversion: '1.0',
        id: 'ce-1',
        type: 'qbo.customer.created.v1',
        time: '2026-11-28T10:00:00Z',
        intuitentityid: '7',
        intuitaccountid: '913',
      },
    ];
    expect(normaliseQuickBooks(cloud)).toEqual({
      events: [{ type: 'customer.created', upstreamId: 'ce-1', recordId: '7', occurredAt: '2026-11-28T10:00:00.000Z', payload: cloud[0] }],
    });
    expect(() => normaliseQuickBooks({ something: 'else' })).toThrow(/eventNotifications/);
  });
});
