import { describe, expect, it } from 'vitest';
import { breakChecksum, isValidEvmAddress, toChecksumAddress } from '../src/model/eip55.js';

// Test vectors from EIP-55 itself.
const VECTORS = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('EIP-55', () => {
  it('checksums the EIP vectors exactly', () => {
    for (const v of VECTORS) {
      const body = v.slice(2);
      // The EIP lists all-caps and all-lower examples too: they pass, but are not their own checksum.
      if (body !== body.toLowerCase() && body !== body.toUpperCase()) expect(toChecksumAddress(v.toLowerCase())).toBe(v);
      expect(isValidEvmAddress(v)).toEqual({ ok: true });
    }
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
  });
  it('passes all-lowercase and all-uppercase on format alone', () => {
    expect(isValidEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed').ok).toBe(true);
    expect(isValidEvmAddress('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED').ok).toBe(true);
  });
  it('fails a mixed-case address with one flipped letter', () => {
    const bad = breakChecksum('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    expect(bad).not.toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    expect(isValidEvmAddress(bad)).toEqual({ ok: false, reason: expect.stringContaining('checksum') });
  });
  it('fails the format on length, prefix and non-hex', () => {
    for (const a of ['0x1234', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00', '0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '']) {
      expect(isValidEvmAddress(a).ok).toBe(false);
    }
  });
});
