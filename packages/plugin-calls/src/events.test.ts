import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normaliseCallRail, verifyCallRail } from './events.js';

const KEY = 'company-signing-key';
const call = { id: 'CAL123', resource_id: 'CAL123', start_time: '2026-11-28T09:14:00-05:00', created_at: '2026-11-28T09:14:00-05:00' };
const delivery = (body: string, headers: Record<string, string>, query: Record<string, string> = {}) => ({
  body: Buffer.from(body),
  headers,
  query,
});

describe('CallRail deliveries', () => {
  it('verifies the base64 HMAC-SHA1 of the body, and reads the body’s stamp for the window', () => {
    const body = JSON.stringify(call);
    const signature = createHmac('sha1', KEY).update(body).digest('base64');
    expect(verifyCallRail(delivery(body, { signature }), KEY)).toEqual({
      outcome: 'signed',
      signedAt: Date.parse(call.created_at),
      replayKey: signature,
    });
    expect(verifyCallRail(delivery(body, { signature }), 'another-key').outcome).toBe('forged');
    expect(verifyCallRail(delivery(`${body} `, { signature }), KEY).outcome).toBe('forged');
    expect(verifyCallRail(delivery(body, {}), KEY).outcome).toBe('forged');
    expect(verifyCallRail(delivery(body, { signature: 'short' }), KEY).outcome).toBe('forged');
  });

  it('names the event by the webhook the URL names, else by the body; a changed call once per distinct body', () => {
    const body = JSON.stringify(call);
    const completed = normaliseCallRail(call, delivery(body, {}));
    expect(completed).toEqual({
      events: [
        {
          type: 'call.completed',
          upstreamId: 'post_call:CAL123',
          recordId: 'CAL123',
          occurredAt: '2026-11-28T14:14:00.000Z',
          payload: call,
        },
      ],
    });
    const started = normaliseCallRail(call, delivery(body, {}, { webhook: 'pre_call' }));
    expect('events' in started && started.events[0]?.type).toBe('call.started');
    const changed = (text: string) => {
      const result = normaliseCallRail(JSON.parse(text), delivery(text, {}, { webhook: 'call_modified' }));
      return 'events' in result ? result.events[0]?.upstreamId : undefined;
    };
    expect(changed(body)).not.toBe(changed(JSON.stringify({ ...call, note: 'called back' })));
    expect(changed(body)).toBe(changed(body));
    const text = normaliseCallRail({ id: 'SMS1', content: 'hi', direction: 'incoming' }, delivery('{}', {}));
    expect('events' in text && text.events[0]?.type).toBe('text.received');
    expect(() => normaliseCallRail(call, delivery(body, {}, { webhook: 'nonsense' }))).toThrow(/unknown webhook/);
    expect(() => normaliseCallRail({ answered: true }, delivery('{}', {}))).toThrow(/names no record/);
  });
});
