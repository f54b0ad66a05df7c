import type { NormalisedEvent } from '@portico/core/plugin';
import { describe, expect, it } from 'vitest';
import { normaliseSlack, verifySlack } from './events.js';

/** Slack's published example of a signed request (its signing secret, timestamp, form body and signature). */
const EXAMPLE = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  body:
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar' +
    '&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com' +
    '%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};

const delivery = (headers: Record<string, string>, body = EXAMPLE.body) => ({ body: Buffer.from(body), headers, query: {} });

describe('Slack deliveries', () => {
  it("verifies Slack's own example, and refuses it with another secret, another body or no signature", () => {
    const headers = { 'x-slack-signature': EXAMPLE.signature, 'x-slack-request-timestamp': EXAMPLE.timestamp };
    expect(verifySlack(delivery(headers), EXAMPLE.secret)).toEqual({
      outcome: 'signed',
      signedAt: 1531420618000,
      replayKey: EXAMPLE.signature,
    });
    expect(verifySlack(delivery(headers), 'another-secret').outcome).toBe('forged');
    expect(verifySlack(delivery(headers, `${EXAMPLE.body}&x=1`), EXAMPLE.secret).outcome).toBe('forged');
    expect(verifySlack(delivery({ ...headers, 'x-slack-request-timestamp': '1531420619' }), EXAMPLE.secret).outcome).toBe('forged');
    expect(verifySlack(delivery({ 'x-slack-request-timestamp': EXAMPLE.timestamp }), EXAMPLE.secret).outcome).toBe('forged');
    expect(verifySlack(delivery({ ...headers, 'x-slack-signature': 'v1=abc' }), EXAMPLE.secret).outcome).toBe('forged');
  });

  it('names message events by what happened to the message, and addresses them by channel and ts', () => {
    const envelope = (event: Record<string, unknown>) => ({
      type: 'event_callback',
      token: 'old',
      event_id: 'Ev1',
      event_time: 1714122000,
      event,
    });
    const posted = normaliseSlack(envelope({ type: 'message', channel: 'C1', user: 'U1', text: 'hi', ts: '1714122000.000100' }));
    expect(posted).toEqual({
      events: [
        {
          type: 'message.posted',
          upstreamId: 'Ev1',
          recordId: 'C1/1714122000.000100',
          occurredAt: '2024-04-26T09:00:00.000Z',
          payload: { type: 'event_callback', event_id: 'Ev1', event_time: 1714122000, event: expect.any(Object) },
        },
      ],
    });
    const type = (event: Record<string, unknown>): { events: NormalisedEvent[] } => {
      const read = normaliseSlack(envelope(event));
      return 'events' in read ? read : { events: [] };
    };
    expect(type({ type: 'message', subtype: 'message_changed', channel: 'C1', message: { ts: '1.2' } }).events[0]?.type).toBe(
      'message.edited',
    );
    expect(type({ type: 'message', subtype: 'bot_message', channel: 'C1', ts: '1.2' }).events[0]?.type).toBe('message.posted');
    expect(type({ type: 'reaction_added', item: { channel: 'C1', ts: '1.2' } }).events[0]).toMatchObject({
      type: 'reaction.added',
      recordId: 'C1/1.2',
    });
    expect(type({ type: 'emoji_changed' }).events[0]?.type).toBe('slack.emoji_changed');
    expect(normaliseSlack({ type: 'url_verification', challenge: 'abc' })).toEqual({ answer: { challenge: 'abc' } });
    expect(() => normaliseSlack({ type: 'event_callback' })).toThrow(/event_id/);
  });
});
