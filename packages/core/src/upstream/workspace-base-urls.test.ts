import { describe, expect, it } from 'vitest';
import type { Plugin } from '../contract/plugin.js';
import { EgressPolicy } from './egress.js';
import { joinPath } from './send.js';
import { parseWorkspaceHosts, WorkspaceBaseUrls } from './workspace-base-urls.js';

const plugin = {
  service: 'notes',
  displayName: 'Notes',
  upstream: { baseUrl: 'https://api.notes.example/v1', egressHosts: ['files.notes.example', '*.cdn.notes.example'] },
} as unknown as Plugin;

/** The ten forms a tenant could use to turn the gateway inward. */
const INWARD_BASE_URLS: ReadonlyArray<[string, RegExp]> = [
  ['http://127.0.0.1:9464/metrics#', /may not contain "\?" or "#"/],
  ['http://[::1]:9464/', /points at ::1, which is not one of Notes's hosts/],
  ['http://2130706433:9464/', /points at 127\.0\.0\.1, which is not/], // decimal
  ['http://0177.0.0.1:9464/', /points at 127\.0\.0\.1, which is not/], // octal
  ['http://10.0.0.5/v1', /points at 10\.0\.0\.5, which is not/],
  ['http://169.254.10.5/', /link-local/],
  ['http://169.254.169.254/latest/', /cloud metadata/],
  ['http://localhost:9464/', /points at localhost, which is not/], // a name resolving to loopback
  ['https://api.notes.example/v1?', /may not contain "\?" or "#"/],
  ['https://user:secret@api.notes.example/v1', /may not carry a user name or password/],
];

describe('a base URL a workspace stores', () => {
  const policy = new WorkspaceBaseUrls(new EgressPolicy(), undefined);

  it('is refused in each of the ten inward forms, naming why', () => {
    for (const [url, reason] of INWARD_BASE_URLS) expect(policy.problem(plugin, url, 'The base URL'), url).toMatch(reason);
    expect(policy.problem(plugin, 'https://api.notes.example@127.0.0.1/', 'The base URL')).toMatch(/user name or password/);
    expect(policy.problem(plugin, 'http://127.0.0.1.nip.io/', 'The base URL')).toMatch(/not one of Notes's hosts/);
  });

  it('is accepted on the plugin’s own hosts', () => {
    for (const url of [
      'https://api.notes.example/v2',
      'https://files.notes.example',
      'https://eu.cdn.notes.example/x',
      'http://API.NOTES.EXAMPLE./v1',
    ]) {
      expect(policy.problem(plugin, url, 'The base URL'), url).toBeUndefined();
    }
  });

  it('is accepted on the hosts the operator approves, and only there', () => {
    const approving = new WorkspaceBaseUrls(new EgressPolicy(), ['127.0.0.1', '10.0.0.0/8', 'proxy.corp.example', '*.internal.example']);
    for (const url of [
      'http://127.0.0.1:9464/x',
      'http://2130706433/',
      'http://10.1.2.3/',
      'http://proxy.corp.example/',
      'http://a.internal.example/',
    ]) {
      expect(approving.problem(plugin, url, 'x'), url).toBeUndefined();
    }
    for (const url of ['http://[::1]/', 'http://192.168.1.1/', 'http://localhost/', 'http://127.0.0.1/x#', 'http://u:p@127.0.0.1/'])
      expect(approving.problem(plugin, url, 'x'), url).toBeDefined();
    // the egress policy still holds: metadata needs PORTICO_EGRESS_ALLOW_PRIVATE as well
    expect(new WorkspaceBaseUrls(new EgressPolicy(), 'any').problem(plugin, 'http://169.254.169.254/', 'x')).toMatch(/metadata/);
    expect(new WorkspaceBaseUrls(new EgressPolicy(), 'any').problem(plugin, 'http://192.168.1.1/', 'x')).toBeUndefined();
  });

  it('reads the operator setting strictly', () => {
    expect(parseWorkspaceHosts(undefined)).toBeUndefined();
    expect(parseWorkspaceHosts('none')).toBeUndefined();
    expect(parseWorkspaceHosts('ANY')).toBe('any');
    expect(parseWorkspaceHosts('127.0.0.1, 10.0.0.0/8,*.corp.example')).toEqual(['127.0.0.1', '10.0.0.0/8', '*.corp.example']);
    for (const bad of ['10.0.0.0/33', 'http://x', 'a b', '*.com', '1.2.3.4/8/1'])
      expect(() => parseWorkspaceHosts(bad), bad).toThrow(/is not a host name/);
  });
});

describe('joinPath', () => {
  it('appends the operation’s path as a path: a ? or # in the base URL never swallows it', () => {
    expect(joinPath('http://127.0.0.1:9464/metrics#', '/users')).toBe('http://127.0.0.1:9464/metrics/users');
    expect(joinPath('http://127.0.0.1:9464/metrics?', '/users')).toBe('http://127.0.0.1:9464/metrics/users');
    expect(joinPath('http://h.example/a?x=1#f', '/b/c')).toBe('http://h.example/a/b/c');
    expect(joinPath('https://h.example/v1/', '/users')).toBe('https://h.example/v1/users');
    expect(joinPath('https://h.example', '/users')).toBe('https://h.example/users');
    expect(joinPath('https://h.example/v1', '/a?b#c')).toBe('https://h.example/v1/a%3Fb%23c');
  });
});
