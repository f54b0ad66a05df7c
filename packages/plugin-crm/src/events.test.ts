import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normaliseLawmatics, verifyLawmatics } from './events.js';

const SECRET = 'lawmatics-signing-secret';
const converted = {
  event_id: 'evt-1',
  event: 'matter.converted',
  timestamp: '2026-11-28T14:14:00.000Z',
  data: { id: '4242', type: 'matter' },
};
const delivery = (body: string, headers: Record<string, string>, query: Record<string, string> = {}) => ({
  body: Buffer.from(body),
  headers,
  query,
});
const headers = (body: string, stamp = '1764339240', secret = SECRET) => ({
  'x-lawmatics-timestamp': stamp,
  'x-lawmatics-signature': createHmac('sha256', secret).update(`${stamp}.${body}`).digest('hex'),
});

describe('Lawmatics deliveries', () => {
  it('verifies the hex HMAC-SHA256 of {timestamp}.{body}, the timestamp being the signed time', () => {
    const body = JSON.stringify(converted);
    const signed = headers(body);
    expect(verifyLawmatics(delivery(body, signed), SECRET)).toEqual({
      outcome: 'signed',
      signedAt: 1764339240_000,
      replayKey: signed['x-lawmatics-signature'],
    });
    // the timestamp is covered: moving it breaks the signature
    expect(verifyLawmatics(delivery(body, { ...signed, 'x-lawmatics-timestamp': '1764339300' }), SECRET).outcome).toBe('forged');
    expect(verifyLawmatics(delivery(body, headers(body, '1764339240', 'another')), SECRET).outcome).toBe('forged');
    expect(verifyLawmatics(delivery(`${body} `, signed), SECRET).outcome).toBe('forged');
    expect(verifyLawmatics(delivery(body, { 'x-lawmatics-signature': signed['x-lawmatics-signature'] }), SECRET).outcome).toBe('forged');
    expect(verifyLawmatics(delivery(body, headers(body, 'yesterday')), SECRET).outcome).toBe('forged');
    const prefixed = { ...signed, 'x-lawmatics-signature': `sha256=${signed['x-lawmatics-signature']}` };
    expect(verifyLawmatics(delivery(body, prefixed), SECRET).outcome).toBe('signed');
  });

  it('names the event as the body does (else ?event=), the record by data.id, and stores an event id once', () => {
    const body = JSON.stringify(converted);
    expect(normaliseLawmatics(converted, delivery(body, {}))).toEqual({
      events: [{ type: 'matter.converted', upstreamId: 'evt-1', recordId: '4242', occurredAt: converted.timestamp, payload: converted }],
    });
    const named = normaliseLawmatics(
      { id: 7 },
      delivery('{"id":7}', { 'x-lawmatics-timestamp': '1764339240' }, { event: 'prospect.created' }),
    );
    expect('events' in named && named.events[0]).toMatchObject({
      type: 'prospect.created',
      recordId: '7',
      upstreamId: 'prospect.created:7:1764339240',
    });
    expect(() => normaliseLawmatics({ data: { id: 1 } }, delivery('{}', {}))).toThrow(/names no event type/);
    expect(() => normaliseLawmatics({ event: 'matter.converted', data: {} }, delivery('{}', {}))).toThrow(/names no record/);
  });
});
