import { describe, expect, it } from 'vitest';
import { examplePlugin } from '../testing/example-plugin.js';
import { definePlugin } from './plugin.js';
import { Registry, RegistryError } from './registry.js';
import { NO_UPSTREAM_LIMITS, parseUpstreamLimits, type UpstreamLimits } from './upstream-limits.js';

describe('a plugin’s upstream.limits', () => {
  it('refuses to register a plugin whose limits are not whole numbers in range or name an unknown window', () => {
    const bad = (limits: unknown) =>
      new Registry().register(
        definePlugin({ ...examplePlugin, upstream: { ...examplePlugin.upstream, limits: limits as UpstreamLimits } }),
      );
    expect(() => bad({ concurrency: 1.5 })).toThrow(RegistryError);
    expect(() => bad({ perDay: 5 })).toThrow(/no field "perDay"/);
    expect(() => bad({ perHour: 1_000_000 })).toThrow(/from 0 to 10000/);
    expect(() => bad({ concurrency: 10, perSecond: 10, perMinute: 500 })).not.toThrow();
  });
});

describe('PORTICO_<SERVICE>_UPSTREAM_LIMITS', () => {
  it('reads none, and name=number pairs', () => {
    expect(parseUpstreamLimits('none')).toEqual(NO_UPSTREAM_LIMITS);
    expect(parseUpstreamLimits(' concurrency=5, per_minute=40 ')).toEqual({ concurrency: 5, perMinute: 40 });
    expect(parseUpstreamLimits('per_second=0,per_hour=900')).toEqual({ perSecond: 0, perHour: 900 });
  });

  it('refuses anything else with a message naming the part', () => {
    expect(() => parseUpstreamLimits('concurrency')).toThrow(/"concurrency" must be name=number/);
    expect(() => parseUpstreamLimits('per_day=5')).toThrow(/"per_day=5"/);
    expect(() => parseUpstreamLimits('__proto__=1')).toThrow(/must be name=number/);
    expect(() => parseUpstreamLimits('concurrency=-1')).toThrow(/must be name=number/);
    expect(() => parseUpstreamLimits('per_minute=20000')).toThrow(/from 0 to 10000/);
  });
});
