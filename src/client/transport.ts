// How rampart's requests reach a target that is elsewhere: through the proxy
// the environment names (HTTPS_PROXY / HTTP_PROXY, NO_PROXY: undici's
// EnvHttpProxyAgent, as curl and k6 read them) and trusting a private CA (the
// profile's harness.caFile, beside Node's own NODE_EXTRA_CA_CERTS). One
// keep-alive dispatcher per CA, for the whole process.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

/** The proxy the environment names, if any (for the run's report and doctor). */
export function proxyFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const v of PROXY_VARS) if (env[v]) return env[v];
  return undefined;
}

/** A CA bundle file's PEM, or a one-line error naming the field. */
export function readCaFile(file: string): string {
  try {
    const pem = readFileSync(file, 'utf8');
    if (!/-----BEGIN CERTIFICATE-----/.test(pem)) throw new Error('no PEM certificate in it');
    return pem;
  } catch (e) {
    throw new Error(`harness.caFile ${file}: ${(e as Error).message} — give a PEM file of the CA that signs the target's certificate`);
  }
}

const dispatchers = new Map<string, Dispatcher>();

/** The dispatcher for requests trusting `caPem` (beside the system roots), through the environment's proxy when it names one. */
export function dispatcherFor(caPem?: string): Dispatcher {
  const key = `${caPem ?? ''}\u0000${proxyFromEnv() ?? ''}`;
  let d = dispatchers.get(key);
  if (!d) {
    const tls = caPem ? { ca: [...rootCertificates, caPem] } : {};
    const base = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 30_000, connections: 128 };
    d = proxyFromEnv()
      ? new EnvHttpProxyAgent({ ...base, connect: { timeout: 10_000, ...tls }, requestTls: { timeout: 10_000, ...tls } })
      : new Agent({ ...base, connect: { timeout: 10_000, ...tls } });
    dispatchers.set(key, d);
  }
  return d;
}

/**
 * Environment for a Go program (k6) that must trust the same CA: Go reads SSL_CERT_FILE in place of the
 * system roots, so it gets a bundle of both. Proxy variables pass through as they are.
 */
export function goTlsEnv(caPem: string | undefined, bundleFile: string, write: (file: string, text: string) => void): Record<string, string> {
  const extra = process.env.NODE_EXTRA_CA_CERTS ? safeRead(process.env.NODE_EXTRA_CA_CERTS) : undefined;
  if (!caPem && !extra) return {};
  write(bundleFile, [...rootCertificates, ...(caPem ? [caPem] : []), ...(extra ? [extra] : [])].join('\n'));
  return { SSL_CERT_FILE: bundleFile };
}

function safeRead(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
