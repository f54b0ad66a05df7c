import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthorizationCodes,
  authorizeCode,
  basicCredentials,
  type EmulatorRequest,
  FIRM_PEOPLE,
  oauthError,
  parseForm,
  parseJson,
  tokenParams,
} from './emulator.js';

function requestOf(target: string, options: { headers?: Record<string, string>; body?: string } = {}): EmulatorRequest {
  const url = new URL(target, 'http://sandbox');
  const body = Buffer.from(options.body ?? '');
  const headers = options.headers ?? {};
  return {
    method: options.body === undefined ? 'GET' : 'POST',
    url,
    path: url.pathname,
    query: url.searchParams,
    headers,
    body,
    seq: 1,
    origin: 'http://sandbox',
    text: () => body.toString('utf8'),
    json: () => parseJson(body),
    form: () => parseForm(body),
    mediaType: () => (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '',
  };
}

const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });
const REDIRECT = 'https://gateway.example/callback?from=sandbox';
const wording = { missing: 'client_id and redirect_uri are required', responseType: 'response_type must be code' };

afterEach(() => {
  vi.useRealTimers();
});

describe('oauthError', () => {
  it('answers RFC 6749 §5.2 `{ error, error_description }`, leaving out an empty description', async () => {
    const full = oauthError(400, 'invalid_grant', 'Invalid code.', { fields: { request_id: 'r1' }, headers: { pragma: 'no-cache' } });
    expect(full.status).toBe(400);
    expect(full.headers).toEqual({ pragma: 'no-cache' });
    expect(JSON.parse(String(full.body))).toEqual({ error: 'invalid_grant', error_description: 'Invalid code.', request_id: 'r1' });
    expect(JSON.parse(String(oauthError(401, 'invalid_client').body))).toEqual({ error: 'invalid_client' });
  });
});

describe('authorizeCode', () => {
  const codes = () => new AuthorizationCodes<string>();
  const options = (store: AuthorizationCodes<string>) => ({
    application: 'Acme',
    codes: store,
    grant: (person: { email: string }) => person.email,
    wording,
  });

  it('refuses a request without a client, a redirect URI that is not a URL, or another response type', () => {
    const store = codes();
    const refused = (query: string) => {
      const reply = authorizeCode(requestOf(`/oauth/authorize?${query}`), options(store));
      return { status: reply.status, body: JSON.parse(String(reply.body)) };
    };
    const uri = encodeURIComponent(REDIRECT);
    expect(refused(`redirect_uri=${uri}&response_type=code`)).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: wording.missing },
    });
    expect(refused('client_id=app&redirect_uri=not-a-url&response_type=code').body.error).toBe('invalid_request');
    expect(refused(`client_id=app&redirect_uri=${uri}&response_type=token`)).toEqual({
      status: 400,
      body: { error: 'unsupported_response_type', error_description: wording.responseType },
    });
  });

  it('sends the browser back with a code for the person who signed in, and the state it was given', () => {
    const store = codes();
    const person = FIRM_PEOPLE[1] as (typeof FIRM_PEOPLE)[number];
    const query = new URLSearchParams({
      client_id: 'app',
      redirect_uri: REDIRECT,
      response_type: 'code',
      state: 's1',
      login_hint: person.email,
    });
    const reply = authorizeCode(requestOf(`/oauth/authorize?${query}`), options(store));
    expect(reply.status).toBe(302);
    const back = new URL(reply.headers?.location ?? '');
    expect(`${back.origin}${back.pathname}`).toBe('https://gateway.example/callback');
    expect(back.searchParams.get('from')).toBe('sandbox');
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code') ?? '';
    expect(store.redeem(code, { clientId: 'app', redirectUri: REDIRECT })).toBe(person.email);
  });

  it('shows the firm’s sign-in page when a sign-in is asked for, and hands out no code', () => {
    const query = new URLSearchParams({ client_id: 'app', redirect_uri: REDIRECT, response_type: 'code', prompt: 'login' });
    const reply = authorizeCode(requestOf(`/oauth/authorize?${query}`), options(codes()));
    expect(reply.status).toBe(200);
    expect(reply.contentType).toMatch(/^text\/html/);
    expect(String(reply.body)).toContain('Sign in to Acme');
  });
});

describe('AuthorizationCodes', () => {
  const to = { clientId: 'app', redirectUri: REDIRECT };

  it('gives a code’s grant once, to the client it was issued to and with the same redirect URI', () => {
    const codes = new AuthorizationCodes<string>();
    const code = codes.issue(to, 'grant');
    expect(code).toMatch(/^[0-9a-f]{32}$/);
    expect(codes.redeem(code, { clientId: 'other', redirectUri: REDIRECT })).toBeUndefined();
    expect(codes.redeem(code, { clientId: 'app', redirectUri: undefined })).toBeUndefined();
    expect(codes.redeem(code, to)).toBe('grant');
    expect(codes.redeem(code, to)).toBeUndefined();
    expect(codes.redeem(undefined, to)).toBeUndefined();
  });

  it('spends a code on a failed exchange too, and lets it expire, where the application does', () => {
    vi.useFakeTimers({ now: new Date('2026-03-02T10:00:00Z') });
    const codes = new AuthorizationCodes<string>({ mint: () => `c${Math.random()}`, ttlMs: 60_000, spentOnFailure: true });
    const tried = codes.issue(to, 'grant');
    expect(tried).toMatch(/^c/);
    expect(codes.redeem(tried, { ...to, redirectUri: 'https://elsewhere.example/' })).toBeUndefined();
    expect(codes.redeem(tried, to)).toBeUndefined();
    const late = codes.issue(to, 'grant');
    vi.advanceTimersByTime(60_001);
    expect(codes.redeem(late, to)).toBeUndefined();
  });
});

describe('the token request', () => {
  it('reads the client credentials of HTTP Basic, each part form-URL-decoded (RFC 6749 §2.3.1)', () => {
    expect(basicCredentials(requestOf('/token', { headers: basic('my%3Aapp:s%C3%A9cret+one%2B'), body: '' }))).toEqual({
      clientId: 'my:app',
      clientSecret: 'sécret one+',
    });
    expect(basicCredentials(requestOf('/token', { headers: basic('app-without-secret'), body: '' }))).toBeUndefined();
    expect(basicCredentials(requestOf('/token', { headers: basic(':secret'), body: '' }))).toBeUndefined();
    expect(basicCredentials(requestOf('/token', { headers: basic('app:%E0%A4%A'), body: '' }))).toBeUndefined();
    expect(basicCredentials(requestOf('/token', { headers: { authorization: 'Bearer abc' }, body: '' }))).toBeUndefined();
  });

  it('reads the parameters from a form, or from a JSON object with each value as text', () => {
    const form = requestOf('/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=abc&client_id=app',
    });
    expect(tokenParams(form)).toEqual({ grant_type: 'authorization_code', code: 'abc', client_id: 'app' });
    const json = requestOf('/token', {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ grant_type: 'authorization_code', code: 12 }),
    });
    expect(tokenParams(json)).toEqual({ grant_type: 'authorization_code', code: '12' });
    expect(tokenParams(requestOf('/token', { headers: { 'content-type': 'application/json' }, body: '[1]' }))).toEqual({});
  });
});
