import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handshakeNotion, normaliseNotion, verifyNotion } from './events.js';

const TOKEN = 'secret_notion-verification-token';
const event = {
  id: '6f1c2f0e-6b1b-4f6e-9a57-2f6a1d1e0c11',
  timestamp: '2026-11-28T14:14:00.000Z',
  type: 'page.content_updated',
  entity: { id: '1429989f-e8ac-4eff-bc8f-57f56486db54', type: 'page' },
  attempt_number: 1,
};
const delivery = (body: string, headers: Record<string, string> = {}) => ({ body: Buffer.from(body), headers, query: {} });
const sign = (body: string, token = TOKEN) => `sha256=${createHmac('sha256', token).update(body).digest('hex')}`;

describe('Notion deliveries', () => {
  it('verifies sha256= and the hex HMAC-SHA256 of the body, and reads the event’s timestamp for the window', () => {
    const body = JSON.stringify(event);
    const signature = sign(body);
    expect(verifyNotion(delivery(body, { 'x-notion-signature': signature }), TOKEN)).toEqual({
      outcome: 'signed',
      signedAt: Date.parse(event.timestamp),
      replayKey: signature.slice('sha256='.length),
    });
    expect(verifyNotion(delivery(body, { 'x-notion-signature': sign(body, 'secret_other') }), TOKEN).outcome).toBe('forged');
    expect(verifyNotion(delivery(`${body}\n`, { 'x-notion-signature': signature }), TOKEN).outcome).toBe('forged');
    expect(verifyNotion(delivery(body, { 'x-notion-signature': signature.slice(7) }), TOKEN).outcome).toBe('forged');
    expect(verifyNotion(delivery(body), TOKEN).outcome).toBe('forged');
  });

  it('recognises the verification request, unsigned with only its token, and nothing else', () => {
    expect(handshakeNotion(delivery(JSON.stringify({ verification_token: TOKEN })))).toEqual({
      secret: TOKEN,
      reply: { body: { ok: true } },
    });
    expect(handshakeNotion(delivery(JSON.stringify({ verification_token: TOKEN, type: 'page.created' })))).toBeUndefined();
    const signed = JSON.stringify({ verification_token: TOKEN });
    expect(handshakeNotion(delivery(signed, { 'x-notion-signature': sign(signed) }))).toBeUndefined();
    expect(handshakeNotion(delivery('not json'))).toBeUndefined();
  });

  it('keeps Notion’s event type and id, the entity as the record', () => {
    expect(normaliseNotion(event)).toEqual({
      events: [
        { type: 'page.content_updated', upstreamId: event.id, recordId: event.entity.id, occurredAt: event.timestamp, payload: event },
      ],
    });
    expect(() => normaliseNotion({ ...event, type: 'Page Updated' })).toThrow(/no Notion event type/);
    expect(() => normaliseNotion({ ...event, id: '' })).toThrow(/no id/);
    expect(() => normaliseNotion('page.created')).toThrow(/not a JSON object/);
  });
});
