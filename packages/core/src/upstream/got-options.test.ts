import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Options } from 'got';
import { describe, expect, it } from 'vitest';
import { gotOwnOptionsBuilder, tuneGotOptions } from './got-options.js';

type Built = Record<string, unknown>;
const build = (options: Options) => (options as unknown as { createNativeRequestOptions(): Built }).createNativeRequestOptions();

describe('got request options built without the slow literal', () => {
  it('the installed got is the one the replacement mirrors (an upgrade that changes it fails here: check it again)', () => {
    expect(tuneGotOptions(Options)).toBe(true);
    expect(gotOwnOptionsBuilder(Options)).toBeTypeOf('function');
  });

  it('builds what got builds: same keys and values, the named options winning over the cache and socket options', () => {
    tuneGotOptions(Options);
    const own = gotOwnOptionsBuilder(Options);
    if (!own) throw new Error('not tuned');
    const lookup = () => undefined;
    const cases: Options[] = [
      new Options('http://127.0.0.1:8080/api/items?limit=5', { method: 'GET', headers: { accept: 'application/json' } }),
      new Options('https://api.example.test/v1/x', {
        method: 'POST',
        body: '{}',
        agent: { http: new HttpAgent(), https: new HttpsAgent() },
        https: { rejectUnauthorized: false, minVersion: 'TLSv1.2', ciphers: 'HIGH' },
        dnsLookup: lookup as never,
        localAddress: '127.0.0.1',
        cacheOptions: { shared: false },
      }),
      new Options('http://unix:/tmp/portico.sock:/api/items', { method: 'DELETE', enableUnixSockets: true }),
    ];
    for (const options of cases) {
      const tuned = build(options);
      const theirs = own.call(options as never);
      expect(tuned).toEqual(theirs);
      expect(Object.keys(tuned).sort()).toEqual(Object.keys(theirs).sort());
    }
    // the socket path's host and path are there, as got's own spread put them
    const unix = build(cases[2] as Options);
    expect(unix.socketPath).toBe('/tmp/portico.sock');
    expect(unix.path).toBe('/api/items');
  });

  it('leaves any other version alone', () => {
    class Other {
      createNativeRequestOptions() {
        return { method: 'GET' };
      }
    }
    const before = Other.prototype.createNativeRequestOptions;
    expect(tuneGotOptions(Other)).toBe(false);
    expect(Other.prototype.createNativeRequestOptions).toBe(before);
  });
});
