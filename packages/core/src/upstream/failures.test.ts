import { describe, expect, it } from 'vitest';
import type { UpstreamResponse } from '../contract/operation.js';
import { GatewayError } from '../errors.js';
import {
  capMessage,
  readUpstreamFailure,
  redactSecrets,
  retryAfterFromHeaders,
  retryAfterMs,
  upstreamErrorMessage,
  upstreamInspector,
} from './failures.js';

const answer = (status: number, body: unknown, headers: UpstreamResponse['headers'] = {}): UpstreamResponse => ({ status, headers, body });

describe('readUpstreamFailure', () => {
  it('treats every 2xx as success, whatever the body says', () => {
    expect(readUpstreamFailure(answer(200, { error: 'looks like an error but is data' }))).toBeUndefined();
    expect(readUpstreamFailure(answer(204, undefined))).toBeUndefined();
  });

  it('shows no HTML of a proxy’s error page', () => {
    const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';
    expect(readUpstreamFailure(answer(502, page))).toEqual({ status: 502, message: 'HTTP 502' });
    expect(readUpstreamFailure(answer(502, 'Bad Gateway', { 'content-type': 'text/html' }))?.message).toBe('HTTP 502');
    expect(readUpstreamFailure(answer(503, '  <html>\n<body>down for maintenance</body></html>'))?.message).not.toContain('<');
  });

  it('keeps a short plain-text body, on one line', () => {
    expect(readUpstreamFailure(answer(401, 'HTTP Token: Access denied.\n'))).toEqual({
      status: 401,
      message: 'HTTP Token: Access denied.',
    });
    expect(readUpstreamFailure(answer(422, 'line one\n  line two'))?.message).toBe('line one line two');
  });

  it('does not relay a server fault’s free text, only a structured message (also past a plugin’s reader)', () => {
    const trace = 'TypeError: x is undefined\n    at handler (/srv/upstream/app.js:12:3) password=hunter2';
    expect(readUpstreamFailure(answer(500, trace))).toEqual({ status: 500, message: 'Internal Server Error' });
    expect(readUpstreamFailure(answer(503, trace), { message: (body) => String(body) })?.message).toBe('Service Unavailable');
    expect(readUpstreamFailure(answer(503, undefined))?.message).toBe('HTTP 503');
    expect(readUpstreamFailure(answer(500, trace), { defaultMessages: { 500: 'the server failed' } })?.message).toBe('the server failed');
    expect(readUpstreamFailure(answer(500, { message: 'Database unavailable' }))?.message).toBe('Database unavailable');
    // a fault a plugin maps to 5xx from a 200 answer (Slack's ok:false) is judged the same way
    expect(readUpstreamFailure(answer(200, 'internal trace'), { failed: () => true, status: () => 500 })?.message).toBe(
      'Internal Server Error',
    );
  });

  it('hides secrets in name=value and "name": "value" form, whatever the plugin', () => {
    const failure = readUpstreamFailure(
      answer(400, { message: 'bad config password=hunter2 client_secret="abc def" X-Api-Key=k1 "access_token": "tok", token=t; ok=1' }),
    );
    expect(failure?.message).toBe(
      'bad config password=[redacted] client_secret=[redacted] X-Api-Key=[redacted] "access_token": "[redacted]", token=[redacted]; ok=1',
    );
    expect(redactSecrets('https://h/x?sig=1&X-Amz-Signature=abcd&session_id=s1&page=2')).toBe(
      'https://h/x?sig=1&X-Amz-Signature=[redacted]&session_id=[redacted]&page=2',
    );
    expect(redactSecrets('The token was not accepted; password too short')).toBe('The token was not accepted; password too short');
    expect(redactSecrets(redactSecrets('secret=x'))).toBe('secret=[redacted]');
  });

  it('reads only the start of a large body, in linear time', () => {
    const started = performance.now();
    const huge = readUpstreamFailure(answer(400, `${'a.'.repeat(30_000)} password=x`));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(huge?.message).toHaveLength(300);
  });

  it('caps a long body and marks the cut', () => {
    const failure = readUpstreamFailure(answer(400, { message: `bad ${'x'.repeat(5000)}` }));
    expect(failure?.message).toHaveLength(300);
    expect(failure?.message.endsWith('…')).toBe(true);
    expect(readUpstreamFailure(answer(400, 'y'.repeat(900)), { maxLength: 50 })?.message).toHaveLength(50);
  });

  it('hides a token echoed in a body with the plugin’s redactor, and Bearer values always', () => {
    const redact = (text: string) => text.replace(/token="[^"]*"/g, 'token=[redacted]');
    const echoed = readUpstreamFailure(answer(401, { error: 'Invalid header Token token="s3cr3t-key"' }), { redact });
    expect(echoed?.message).toBe('Invalid header Token token=[redacted]');
    const bearer = readUpstreamFailure(answer(401, { message: 'bad Authorization: Bearer xoxb-1234567890-abcdef' }));
    expect(bearer?.message).toBe('bad Authorization: Bearer [redacted]');
    // the redactor sees the whole text before the cap, so a token straddling the cut is not half shown
    const long = readUpstreamFailure(answer(400, { error: `${'a'.repeat(280)} token="0123456789abcdef"` }), { redact, maxLength: 300 });
    expect(long?.message).not.toContain('0123456789');
  });

  it('passes Retry-After on 429 and 503, as seconds or as an HTTP date', () => {
    expect(readUpstreamFailure(answer(429, { error: 'slow down' }, { 'retry-after': '12' }))).toEqual({
      status: 429,
      message: 'slow down',
      retryAfter: 12,
    });
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    const retryAfter = readUpstreamFailure(answer(503, undefined, { 'retry-after': inTwoMinutes }))?.retryAfter;
    expect(retryAfter).toBeGreaterThanOrEqual(119);
    expect(retryAfter).toBeLessThanOrEqual(120);
    expect(readUpstreamFailure(answer(500, undefined, { 'retry-after': '5' }))?.retryAfter).toBeUndefined();
    expect(readUpstreamFailure(answer(503, undefined, { 'retry-after': '5' }), { retryAfterOn: [429] })?.retryAfter).toBeUndefined();
  });

  it('uses the plugin’s reading first, then the generic one, then its default message, then the status', () => {
    const options = {
      message: (body: unknown) => ((body as { code?: string }).code ? `${(body as { code: string }).code}!` : undefined),
      defaultMessages: { 404: 'not found' },
    };
    expect(readUpstreamFailure(answer(400, { code: 'bad', message: 'generic' }), options)?.message).toBe('bad!');
    expect(readUpstreamFailure(answer(400, { message: 'generic' }), options)?.message).toBe('generic');
    expect(readUpstreamFailure(answer(404, {}), options)?.message).toBe('not found');
    expect(readUpstreamFailure(answer(418, {}), options)?.message).toBe('HTTP 418');
  });

  it('lets a plugin say what fails and what status it is worth (Slack’s 200 ok:false)', () => {
    const inspect = upstreamInspector({
      failed: (r) => (r.body as { ok?: boolean }).ok === false,
      status: (r) => ((r.body as { error?: string }).error === 'ratelimited' ? 429 : 502),
    });
    expect(inspect(answer(200, { ok: true }))).toBeUndefined();
    expect(inspect(answer(200, { ok: false, error: 'ratelimited' }, { 'retry-after': '3' }))).toEqual({
      status: 429,
      message: 'ratelimited',
      retryAfter: 3,
    });
  });
});

describe('upstreamErrorMessage', () => {
  it('reads the usual error bodies', () => {
    expect(upstreamErrorMessage({ message: 'Page not found' })).toBe('Page not found');
    expect(upstreamErrorMessage({ error: 'invalid_grant', error_description: 'Code expired' })).toBe('invalid_grant: Code expired');
    expect(upstreamErrorMessage({ error: 'Not Found' })).toBe('Not Found');
    expect(upstreamErrorMessage({ error: { code: 403, message: 'Forbidden here' } })).toBe('Forbidden here');
    expect(upstreamErrorMessage({ title: 'Bad Request', detail: 'amount must be positive' })).toBe('amount must be positive');
  });

  it('joins every entry of an errors list, naming fields', () => {
    expect(upstreamErrorMessage({ errors: ['Tag limit reached', { field: 'customer_name', message: 'is locked' }] })).toBe(
      'Tag limit reached; customer_name: is locked',
    );
  });

  it('reads Rails validation errors', () => {
    expect(upstreamErrorMessage({ errors: { note: ['is too short'], name: ["can't be blank", 'is taken'] } })).toBe(
      "note is too short; name can't be blank, is taken",
    );
  });

  it('says nothing for bodies without a message', () => {
    expect(upstreamErrorMessage(undefined)).toBeUndefined();
    expect(upstreamErrorMessage({ ok: false })).toBeUndefined();
    expect(upstreamErrorMessage('   ')).toBeUndefined();
    expect(upstreamErrorMessage('<html><body>oops</body></html>')).toBeUndefined();
  });
});

describe('retryAfterFromHeaders and capMessage', () => {
  it('reads seconds, dates, and refuses junk', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterFromHeaders({ 'retry-after': '1.2' }, now)).toBe(2);
    expect(retryAfterFromHeaders({ 'retry-after': ['7'] }, now)).toBe(7);
    expect(retryAfterFromHeaders({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30);
    expect(retryAfterFromHeaders({ 'retry-after': 'Thursday, 01-Jan-26 00:01:00 GMT' }, now)).toBe(60);
    expect(retryAfterFromHeaders({ 'retry-after': 'Thu Jan  1 00:00:05 2026' }, now)).toBe(5);
    expect(retryAfterFromHeaders({ 'retry-after': '-5' }, now)).toBeUndefined();
    expect(retryAfterFromHeaders({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterFromHeaders({}, now)).toBeUndefined();
  });

  it('refuses anything but delta-seconds and HTTP dates, and never says 0 or less', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    for (const junk of [
      '-5, junk',
      '-5',
      '5, junk',
      '5s',
      '+5',
      '0x10',
      '1e3',
      '',
      'Thu, 01 Jan 2026',
      'tomorrow',
      '2026-01-01T00:01:00Z',
    ]) {
      expect(retryAfterFromHeaders({ 'retry-after': junk }, now), junk).toBeUndefined();
      expect(retryAfterMs({ 'retry-after': junk }, now), junk).toBeUndefined();
    }
    expect(retryAfterFromHeaders({ 'retry-after': ['5', '7'] }, now)).toBeUndefined(); // two headers: which one?
    // 0 and a past date: wait nothing, but a caller is told 1 s, never 0
    expect(retryAfterMs({ 'retry-after': '0' }, now)).toBe(0);
    expect(retryAfterFromHeaders({ 'retry-after': '0' }, now)).toBe(1);
    expect(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now)).toBe(0);
    expect(retryAfterFromHeaders({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now)).toBe(1);
    // huge: at most a day
    expect(retryAfterFromHeaders({ 'retry-after': '9'.repeat(400) }, now)).toBe(86_400);
    expect(retryAfterFromHeaders({ 'retry-after': 'Fri, 01 Jan 2100 00:00:00 GMT' }, now)).toBe(86_400);
  });

  it('a GatewayError carries Retry-After as whole seconds ≥ 1, or not at all', () => {
    const wait = (retryAfter: number) => new GatewayError('rate_limited', 'x', { retryAfter }).retryAfter;
    expect(wait(30)).toBe(30);
    expect(wait(2.1)).toBe(3);
    expect(wait(0)).toBe(1);
    expect(wait(-5)).toBeUndefined();
    expect(wait(Number.NaN)).toBeUndefined();
    expect(wait(Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  it('keeps short texts and cuts long ones to the limit', () => {
    expect(capMessage('short', 10)).toBe('short');
    expect(capMessage('0123456789abc', 10)).toBe('012345678…');
  });
});
