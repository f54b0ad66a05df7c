import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handshakeClio, normaliseClio, verifyClio } from './events.js';

const SECRET = 'clio-webhook-secret';
const matter = { data: { id: 3001, display_number: '001-Delgado', updated_at: '2026-11-28T09:14:00-05:00' }, meta: { event: 'updated' } };
const delivery = (body: string, headers: Record<string, string>, query: Record<string, string> = {}) => ({
  body: Buffer.from(body),
  headers,
  query,
});
const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');

describe('Clio deliveries', () => {
  it('verifies the hex HMAC-SHA256 of the body, and reads the record’s updated_at for the window', () => {
    const body = JSON.stringify(matter);
    const signature = sign(body);
    expect(verifyClio(delivery(body, { 'x-hook-signature': signature }), SECRET)).toEqual({
      outcome: 'signed',
      signedAt: Date.parse(matter.data.updated_at),
      replayKey: signature,
    });
    expect(verifyClio(delivery(body, { 'x-hook-signature': sign(body, 'another') }), SECRET).outcome).toBe('forged');
    expect(verifyClio(delivery(`${body} `, { 'x-hook-signature': signature }), SECRET).outcome).toBe('forged');
    expect(verifyClio(delivery(body, {}), SECRET).outcome).toBe('forged');
    expect(verifyClio(delivery(body, { 'x-hook-signature': 'abc' }), SECRET).outcome).toBe('forged');
  });

  it('recognises the first request, which brings X-Hook-Secret, and answers it echoed', () => {
    expect(handshakeClio(delivery('{}', { 'x-hook-secret': 'the-new-secret' }))).toEqual({
      secret: 'the-new-secret',
      reply: { headers: { 'X-Hook-Secret': 'the-new-secret' }, body: { ok: true } },
    });
    expect(handshakeClio(delivery('{}', { 'x-hook-signature': sign('{}') }))).toBeUndefined();
  });

  it('names the event by the model and event, the record by data.id; one change once', () => {
    const body = JSON.stringify(matter);
    expect(normaliseClio(matter, delivery(body, {}))).toEqual({
      events: [
        {
          type: 'matter.updated',
          upstreamId: `matter:3001:updated:${Date.parse(matter.data.updated_at)}`,
          recordId: '3001',
          occurredAt: '2026-11-28T14:14:00.000Z',
          payload: matter,
        },
      ],
    });
    const closed = normaliseClio({ ...matter, meta: { event: 'matter_closed' } }, delivery(body, {}));
    expect('events' in closed && closed.events[0]?.type).toBe('matter.closed');
    const activity = normaliseClio({ data: { id: 5 } }, delivery('{"data":{"id":5}}', {}, { model: 'activity', event: 'created' }));
    expect('events' in activity && activity.events[0]).toMatchObject({ type: 'activity.created', recordId: '5' });
    const payment = normaliseClio({ data: { id: 6 }, meta: { model: 'clio_payments_payment', event: 'created' } }, delivery('{}', {}));
    expect('events' in payment && payment.events[0]?.type).toBe('payment.created');
    expect(() => normaliseClio({ data: { id: 1 } }, delivery('{}', {}, { model: 'invoice' }))).toThrow(/unknown model/);
    expect(() => normaliseClio({ data: { id: 1 } }, delivery('{}', {}, { event: 'toString' }))).toThrow(/unknown event/);
    expect(() => normaliseClio({ data: {} }, delivery('{}', {}))).toThrow(/names no record/);
    expect(() => normaliseClio([], delivery('[]', {}))).toThrow(/no data/);
  });
});
