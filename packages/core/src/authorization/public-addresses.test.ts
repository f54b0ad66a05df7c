import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './public-addresses.js';

describe('the addresses a client metadata document may be fetched from', () => {
  it('are public ones only: no loopback, private, reserved, or IPv6 form that tunnels or translates to IPv4', () => {
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '::1',
      '::7f00:1', // IPv4-compatible 127.0.0.1
      '::ffff:10.0.0.1', // IPv4-mapped private
      '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
      '64:ff9b:1::a00:1', // local-use NAT64
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      'fd00::1',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
