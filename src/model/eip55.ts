// EIP-55 mixed-case checksum for EVM addresses. The pools spec: "EVM 0x + 40
// hex; mixed-case must pass EIP-55; all-lowercase or all-uppercase pass on
// format". Shared ground: the reference target validates with it and the
// harness builds valid and invalid addresses with it.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

const FORMAT = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 checksummed form of a format-valid address (any case in). */
export function toChecksumAddress(addr: string): string {
  if (!FORMAT.test(addr)) throw new Error(`not an EVM address (0x + 40 hex): ${addr}`);
  const lower = addr.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const c = lower[i]!;
    out += parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

export function isValidEvmAddress(addr: string): { ok: boolean; reason?: string } {
  if (typeof addr !== 'string' || !FORMAT.test(addr)) return { ok: false, reason: 'format: expected 0x followed by 40 hex digits' };
  const body = addr.slice(2);
  // Single-case addresses carry no checksum: they pass on format alone.
  if (body === body.toLowerCase() || body === body.toUpperCase()) return { ok: true };
  if (toChecksumAddress(addr) !== addr) return { ok: false, reason: 'checksum: mixed-case address fails EIP-55' };
  return { ok: true };
}

/** Flip the case of one letter of a checksummed address: a mixed-case address that fails EIP-55. */
export function breakChecksum(addr: string): string {
  const good = toChecksumAddress(addr);
  for (let i = 2; i < good.length; i++) {
    const c = good[i]!;
    if (/[a-fA-F]/.test(c)) {
      const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
      const out = good.slice(0, i) + flipped + good.slice(i + 1);
      const body = out.slice(2);
      if (body !== body.toLowerCase() && body !== body.toUpperCase()) return out;
    }
  }
  throw new Error(`address has too few letters to break its checksum: ${addr}`);
}
