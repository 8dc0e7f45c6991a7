// RFC 4122 v4 UUIDs for Idempotency-Key headers (k6 has crypto.randomUUID in
// newer builds; this keeps scenarios independent of that).
import { randomBytes } from 'k6/crypto';

export function uuidv4(): string {
  const b = new Uint8Array(randomBytes(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
