import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ipAddressOctets } from '../../../src/server/pki/ip-address.js';

const hex = (text: string) => ipAddressOctets(text)?.toString('hex');

describe('ipAddressOctets', () => {
  it('turns IPv4 literals into 4 octets', () => {
    expect(hex('10.1.2.3')).toBe('0a010203');
    expect(hex('0.0.0.0')).toBe('00000000');
    expect(hex('255.255.255.255')).toBe('ffffffff');
  });

  it('turns IPv6 literals in every text form into 16 octets', () => {
    expect(hex('::1')).toBe('00000000000000000000000000000001');
    expect(hex('::')).toBe('00000000000000000000000000000000');
    expect(hex('fd00::7')).toBe('fd000000000000000000000000000007');
    expect(hex('FD00::7')).toBe('fd000000000000000000000000000007');
    expect(hex('2001:db8::1:0:0:1')).toBe('20010db8000000000001000000000001');
    expect(hex('1:2:3:4:5:6:7::')).toBe('00010002000300040005000600070000');
    expect(hex('1:2:3:4:5:6:7:8')).toBe('00010002000300040005000600070008');
    expect(hex('::ffff:192.0.2.1')).toBe('00000000000000000000ffffc0000201');
    expect(hex('64:ff9b::192.0.2.33')).toBe('0064ff9b0000000000000000c0000221');
    expect(hex('fe80::1%eth0')).toBe('fe800000000000000000000000000001');
  });

  it('returns undefined for host names and malformed literals', () => {
    for (const text of [
      'localhost',
      'api.example.test',
      '',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '01.2.3.4',
      '1::2::3',
      ':1::2',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '1::2:3:4:5:6:7:8',
      '12345::',
      'g::1',
      '::ffff:1.2.3',
      '::1.2.3.4:5',
      '[::1]',
    ]) {
      expect(ipAddressOctets(text), text).toBeUndefined();
    }
  });

  it('agrees with net.isIP on which strings are addresses', () => {
    const samples = [
      '::',
      '::1',
      '1::',
      '1:2::3:4',
      'a:b:c:d:e:f:0:1',
      '::ffff:10.0.0.1',
      '10.0.0.256',
      'x::',
      'fe80::1%en0',
    ];
    for (const text of samples) expect(ipAddressOctets(text) !== undefined, text).toBe(isIP(text) !== 0);
  });
});
