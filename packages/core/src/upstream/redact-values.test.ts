import { describe, expect, it } from 'vitest';
import { redactValues } from './redact-values.js';

const SECRET = 'client-secret-Zq9/+x';
const REFRESH = 'rt-refresh-token-7c1d';
const body = `grant_type=refresh_token&refresh_token=${REFRESH}&client_id=portico&client_secret=${encodeURIComponent(SECRET)}`;

/** Every run of base64 or hex characters in `text`, decoded at every alignment: what a reader could recover. */
function recoverable(text: string): string {
  const runs = text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? [];
  const decoded: string[] = [];
  for (const run of runs) {
    if (/^[0-9a-fA-F]+$/.test(run)) decoded.push(Buffer.from(run, 'hex').toString('latin1'));
    for (let offset = 0; offset < 4; offset++) decoded.push(Buffer.from(run.slice(offset), 'base64').toString('latin1'));
  }
  return decoded.join('\n');
}

describe('redactValues', () => {
  it('blanks out a value as sent, URL-encoded and in base64', () => {
    const text = `got ${SECRET}; ${encodeURIComponent(SECRET)}; ${Buffer.from(SECRET).toString('base64')}`;
    const out = redactValues(text, [SECRET]);
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(out).toBe('got [redacted]; [redacted]; [redacted]');
  });

  for (const [name, encode] of [
    ['base64', (text: string) => Buffer.from(text).toString('base64')],
    ['base64 without padding', (text: string) => Buffer.from(text).toString('base64').replace(/=+$/, '')],
    ['base64url', (text: string) => Buffer.from(text).toString('base64url')],
    ['hex', (text: string) => Buffer.from(text).toString('hex')],
    ['upper-case hex', (text: string) => Buffer.from(text).toString('hex').toUpperCase()],
    ['base64 of a JSON dump', (text: string) => Buffer.from(JSON.stringify({ received: text })).toString('base64')],
    ['base64 of the hex', (text: string) => Buffer.from(Buffer.from(text).toString('hex')).toString('base64')],
  ] as const) {
    it(`blanks out the whole request body echoed in ${name}`, () => {
      const encoded = encode(body);
      const out = redactValues(`invalid_request: you sent ${encoded} (check it)`, [SECRET, REFRESH]);
      expect(out).toBe('invalid_request: you sent [redacted] (check it)');
      expect(recoverable(out)).not.toContain(REFRESH);
    });
  }

  it('blanks out an encoded body glued to a word, off the 4-character grid', () => {
    for (const prefix of ['b', 'b6', 'b64', 'body']) {
      const out = redactValues(`echo ${prefix}${Buffer.from(body).toString('base64')}`, [SECRET, REFRESH]);
      expect(recoverable(out), prefix).not.toContain(REFRESH);
      expect(recoverable(out), prefix).not.toContain(encodeURIComponent(SECRET));
    }
  });

  it('keeps encoded text that holds no secret, and ordinary words', () => {
    const harmless = Buffer.from('grant_type=refresh_token&client_id=portico').toString('base64');
    const text = `invalid_grant: the refresh token expired, request ${harmless} id 0123456789abcdef`;
    expect(redactValues(text, [SECRET, REFRESH])).toBe(text);
  });
});
