/**
 * Slack message timestamps ("1714060800.000100") are ids as much as times: comparing them as floats loses the
 * microsecond digits, so they are compared as integers of microseconds.
 */
export function tsKey(ts: string): bigint {
  const [seconds = '0', fraction = ''] = ts.split('.');
  return BigInt(seconds) * 1_000_000n + BigInt(fraction.slice(0, 6).padEnd(6, '0'));
}

export function compareTs(a: string, b: string): number {
  const ka = tsKey(a);
  const kb = tsKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
