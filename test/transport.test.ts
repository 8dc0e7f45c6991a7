// Real transport to a target elsewhere: https signed by a private CA (the profile's harness.caFile) and the
// environment's proxy (HTTPS_PROXY / HTTP_PROXY, NO_PROXY), both for rampart's own client.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/client/http.js';
import { clientLimits } from '../src/client/limits.js';
import { goTlsEnv } from '../src/client/transport.js';
import { TransportError } from '../src/client/types.js';
import { parseProfile, ProfileError } from '../src/profile/load.js';
import { selfSignedCert } from './support/selfSignedCert.js';

const answer = (res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', date: new Date().toUTCString() });
  res.end('{"object":"list","data":[],"has_more":false,"url":"/v1/gate_sessions"}');
};
const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

const { key, cert } = selfSignedCert();
const tls = createHttpsServer({ key, cert }, (_req, res) => answer(res));
const plain = createHttpServer((_req, res) => answer(res));
// A forward proxy that tunnels CONNECT, counting what it carried.
const tunnels: string[] = [];
const proxy = createHttpServer((_req, res) => res.writeHead(405).end());
proxy.on('connect', (req, socket, head) => {
  tunnels.push(req.url ?? '');
  const [host, port] = (req.url ?? '').split(':');
  const up = connect(Number(port), host, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    up.write(head);
    up.pipe(socket);
    socket.pipe(up);
  });
  up.on('error', () => socket.destroy());
  socket.on('error', () => up.destroy());
});
let tlsPort = 0;
let plainPort = 0;
let proxyPort = 0;
const dir = mkdtempSync(join(tmpdir(), 'rampart-tls-'));
const caFile = join(dir, 'ca.pem');
writeFileSync(caFile, cert);

beforeAll(async () => {
  [tlsPort, plainPort, proxyPort] = await Promise.all([listen(tls), listen(plain), listen(proxy)]);
});
afterAll(() => {
  for (const s of [tls, plain, proxy]) s.close();
});

describe('a target signed by a private CA', () => {
  it('is refused without the CA (one line naming TLS) and answered with harness.caFile', async () => {
    const base = `https://127.0.0.1:${tlsPort}/v1`;
    const bare = createApiClient({ service: 'gate', baseUrl: base, label: 't', secretKey: 'sk_test_x', retry: undefined });
    const err = await bare.get('/gate_sessions').catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).kind).toBe('tls');
    const trusted = createApiClient({ service: 'gate', baseUrl: base, label: 't', secretKey: 'sk_test_x', ...clientLimits({ caFile }) });
    expect((await trusted.get('/gate_sessions')).status).toBe(200);
  });

  it('a profile whose caFile cannot be read is a profile error naming the field', () => {
    const raw = {
      name: 'p',
      gate: { baseUrls: { sandbox: 'https://sandbox.example.test/v1' }, partners: [{ name: 'a', secretKey: 'sk_test_0123456789abcdef0123456789abcdef' }] },
      harness: { caFile: join(dir, 'missing.pem') },
    };
    expect(() => parseProfile(raw)).toThrow(ProfileError);
    expect(() => parseProfile(raw)).toThrow(/harness\.caFile .*missing\.pem/);
  });

  it('k6 gets a bundle of the system roots and the CA through SSL_CERT_FILE', () => {
    const written = new Map<string, string>();
    const env = goTlsEnv(cert, join(dir, 'bundle.pem'), (f, t) => written.set(f, t));
    expect(env).toEqual({ SSL_CERT_FILE: join(dir, 'bundle.pem') });
    const bundle = written.get(join(dir, 'bundle.pem'))!;
    expect(bundle).toContain(cert.trim());
    expect(bundle.match(/BEGIN CERTIFICATE/g)!.length).toBeGreaterThan(10);
  });
});

describe("the environment's proxy", () => {
  it('HTTPS_PROXY / HTTP_PROXY carry every request through the proxy (https tunnelled with the CA still checked); NO_PROXY exempts a host', async () => {
    const saved = { ...process.env };
    try {
      process.env.HTTP_PROXY = `http://127.0.0.1:${proxyPort}`;
      process.env.HTTPS_PROXY = `http://127.0.0.1:${proxyPort}`;
      process.env.NO_PROXY = '';
      const viaProxy = createApiClient({
        service: 'gate',
        baseUrl: `https://127.0.0.1:${tlsPort}/v1`,
        label: 't',
        secretKey: 'sk_test_x',
        ...clientLimits({ caFile }),
      });
      expect((await viaProxy.get('/gate_sessions')).status).toBe(200);
      expect(tunnels).toContain(`127.0.0.1:${tlsPort}`);
      const plainVia = createApiClient({ service: 'gate', baseUrl: `http://127.0.0.1:${plainPort}/v1`, label: 't', secretKey: 'sk_test_x' });
      expect((await plainVia.get('/gate_sessions')).status).toBe(200);
      expect(tunnels).toContain(`127.0.0.1:${plainPort}`);
      const before = tunnels.length;
      process.env.NO_PROXY = 'localhost';
      const exempt = createApiClient({ service: 'gate', baseUrl: `http://localhost:${plainPort}/v1`, label: 't', secretKey: 'sk_test_x' });
      expect((await exempt.get('/gate_sessions')).status).toBe(200);
      expect(tunnels.length).toBe(before);
    } finally {
      process.env = saved;
    }
  });
});
