// A self-signed certificate for 127.0.0.1/localhost, made at test time with
// node:crypto (P-256 key, a minimal DER X.509 v3 encoder): no openssl, no download.
import { generateKeyPairSync, sign } from 'node:crypto';

function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const n = body.length;
  const len = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, body]);
}
const seq = (...p: Buffer[]) => der(0x30, ...p);
const oid = (dotted: string) => {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
};
const utcTime = (d: Date) => der(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z'));
const name = (cn: string) => seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from(cn)))));

export function selfSignedCert(): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaSha256 = seq(oid('1.2.840.10045.4.3.2'));
  // subjectAltName: DNS localhost, IP 127.0.0.1.
  const san = seq(oid('2.5.29.17'), der(0x04, seq(der(0x82, Buffer.from('localhost')), der(0x87, Buffer.from([127, 0, 0, 1])))));
  const now = Date.now();
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, Buffer.from([0x01, ...Array.from({ length: 8 }, () => Math.floor(Math.random() * 256))])),
    ecdsaSha256,
    name('localhost'),
    seq(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 24 * 3600_000))),
    name('localhost'),
    publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, seq(san)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certDer = seq(tbs, ecdsaSha256, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const pem = `-----BEGIN CERTIFICATE-----\n${certDer
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert: pem };
}
