import { createHmac } from 'node:crypto';
import type { SubscriptionClient, UpstreamRequest } from '@portico/core/plugin';
import { describe, expect, it } from 'vitest';
import { clioSubscriptions, handshakeClio, normaliseClio, verifyClio } from './events.js';

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
    // a webhook's URL names its model: a body saying it is another model's is not that webhook's
    const billed = { data: { id: 1 }, meta: { event: 'updated', model: 'bill' } };
    expect(() => normaliseClio(billed, delivery('{}', {}, { model: 'contact' }))).toThrow(/of model 'bill'/);
    expect(() => normaliseClio(billed, delivery('{}', {}, { model: 'bill' }))).not.toThrow();
    expect(() => normaliseClio([], delivery('[]', {}))).toThrow(/no data/);
  });
});

describe('the Clio webhooks the gateway registers', () => {
  const dataOf = (request: UpstreamRequest | undefined) => (request?.body as { data: Record<string, unknown> } | undefined)?.data ?? {};
  const NOW = new Date('2026-11-28T12:00:00.000Z');
  /** A client that records what it is asked to send and answers as Clio does when it makes a webhook. */
  function recording(): { client: SubscriptionClient; sent: UpstreamRequest[] } {
    const sent: UpstreamRequest[] = [];
    const client: SubscriptionClient = {
      baseUrl: 'https://app.clio.com/api/v4',
      async send(request) {
        sent.push(request);
        const data = { id: 77, shared_secret: 'a-webhook-secret', expires_at: '2026-12-28T12:00:00.000Z' };
        return { status: 201, headers: {}, body: { data } };
      },
    };
    return { client, sent };
  }

  it('declares one topic per model, each named in the URL by model= and read back as that model’s events', () => {
    const { topics, topicParameter } = clioSubscriptions;
    expect([...topics].sort()).toEqual(['activity', 'bill', 'calendar_entry', 'communication', 'contact', 'matter', 'task']);
    expect(topicParameter).toBe('model');
    for (const topic of topics) {
      // Clio's deliveries name the event, not the model: the URL's model= says it
      const body = { data: { id: 5, updated_at: '2026-11-28T09:14:00Z' }, meta: { event: 'created', webhook_id: 1 } };
      const read = normaliseClio(body, delivery(JSON.stringify(body), {}, { model: topic }));
      expect('events' in read && read.events[0]?.type).toBe(`${topic}.created`);
    }
  });

  it('makes a webhook for the topic asked, at the URL given, with that model’s events, for 30 days', async () => {
    const { client, sent } = recording();
    const url = 'https://portico.example.com/api/events/default/clio?model=contact&setup=token';
    const made = await clioSubscriptions.subscribe(client, { topic: 'contact', callbackUrl: url, connection: {}, now: NOW });
    expect(made).toEqual({ id: '77', secret: 'a-webhook-secret', expiresAt: '2026-12-28T12:00:00.000Z' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/webhooks.json' });
    const data = dataOf(sent[0]);
    expect(data).toMatchObject({
      url,
      model: 'contact',
      events: ['created', 'updated', 'deleted'],
      expires_at: '2026-12-28T12:00:00.000Z',
    });
    expect(String(data.fields).split(',')).toEqual(expect.arrayContaining(['id', 'updated_at']));

    await clioSubscriptions.subscribe(client, { topic: 'matter', callbackUrl: url, connection: {}, now: NOW });
    expect(dataOf(sent[1]).events).toContain('matter_closed');
    const communication = { topic: 'communication', callbackUrl: url, connection: {}, now: NOW };
    await clioSubscriptions.subscribe(client, communication);
    expect(String(dataOf(sent[2]).fields).split(',')).not.toContain('body');
    await expect(clioSubscriptions.subscribe(client, { ...communication, topic: 'document' })).rejects.toThrow(/no Clio webhook/);
    expect(sent).toHaveLength(3);
  });
});
