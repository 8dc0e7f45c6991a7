// certificate.json: what a run certified, and the sha256 of every report file,
// signed with Ed25519 (node:crypto) over the canonical JSON of the body, so an
// operator receiving the bundle can tell it was not edited and what produced it.
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { redactDeep } from '../secrets/index.js';
import { CATALOGUE } from '../model/catalogue/index.js';
import { SPEC_VERSION } from '../model/limits.js';
import type { Profile } from '../profile/schema.js';
import { canonicalJson } from './canonicalJson.js';
import { bannerOf } from './html.js';
import type { GatesOfRun, RunResults } from './results.js';
import { listFiles, scanText } from '../secrets/index.js';
import { gitStatusOf } from './gitTracked.js';
import { cachedToolVersions } from '../tools/pinned.js';

export const CERTIFICATE_FILE = 'certificate.json';
export const CERTIFICATE_FORMAT = 'rampart-certificate/1';

/** The profile's non-secret identity: never a key, only names and addresses. */
export interface ProfileIdentity {
  name: string;
  baseUrls: Record<string, string | undefined>;
  partners: { gate: string[]; pools: string[] };
}

export interface CertificateMeta {
  /** The run's profile: identity and time scales are read from it (never its keys). */
  profile?: Profile;
  /** A folder of tool version stamps (.k6.version, .toxiproxy-server.version) to read instead of the tools cache. */
  toolsDir?: string;
}

export interface CertificateBody {
  format: typeof CERTIFICATE_FORMAT;
  verdict: { certified: boolean; label: string; detail: string };
  summary: RunResults['summary'];
  requirements: { id: string; status: string }[];
  rampart: { version: string };
  catalogue: { sha256: string; requirements: number };
  specVersions: { gate: string; pools: string };
  run: { runId: string; command: string; depth: 'quick' | 'full'; startedAt: string; finishedAt: string };
  profile: ProfileIdentity;
  /** Factors the profile declared (1 = real time); null when no profile was given. */
  timeScales: { retryScale: number; rateWindowScale: number } | null;
  /**
   * The performance gates the load checks were judged by: the file, its sha256 and content, and what in it is
   * looser than rampart's defaults (a run by looser gates is never certified); null for a run without load.
   */
  gates: GatesOfRun | null;
  tools: { node: string; k6: string | null; toxiproxy: string | null };
  /** Every file of the run directory but this one, relative POSIX paths, sorted. */
  files: { path: string; sha256: string; bytes: number }[];
}

export interface Certificate extends CertificateBody {
  signature: { alg: 'Ed25519'; publicKeyFingerprint: string; value: string } | null;
  unsigned?: true;
  note?: string;
}

/** A signing-key problem: one line, a usage error. */
export class SigningKeyError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyError';
  }
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function catalogueHash(): string {
  return sha256(canonicalJson(CATALOGUE));
}

/** sha256 of the public key's SPKI DER, the id a verifier compares. */
export function publicKeyFingerprint(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return `sha256:${sha256(pub.export({ type: 'spki', format: 'der' }))}`;
}

export function profileIdentity(profile: Profile): ProfileIdentity {
  return redactDeep({
    name: profile.name,
    baseUrls: {
      gateSandbox: profile.gate.baseUrls.sandbox,
      gateProduction: profile.gate.baseUrls.production,
      poolsSandbox: profile.pools?.baseUrls.sandbox,
      poolsProduction: profile.pools?.baseUrls.production,
    },
    partners: { gate: profile.gate.partners.map((p) => p.name), pools: (profile.pools?.partners ?? []).map((p) => p.name) },
  });
}

function stamp(dir: string, file: string): string | null {
  try {
    return readFileSync(join(dir, file), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

function fileHashes(runDir: string): CertificateBody['files'] {
  return listFiles(runDir)
    .map((p) => ({ rel: relative(runDir, p).split(sep).join('/'), p }))
    .filter(({ rel }) => rel !== CERTIFICATE_FILE)
    .map(({ rel, p }) => {
      const buf = readFileSync(p);
      return { path: rel, sha256: sha256(buf), bytes: buf.length };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The file's bytes: JSON.parse then this gives the same bytes back, so any edit or reformatting shows. */
function serialise(cert: Certificate): string {
  return JSON.stringify(cert, null, 2) + '\n';
}

/** The unsigned body: call it after every other report file is written. */
export function buildCertificate(results: RunResults, runDir: string, meta: CertificateMeta = {}): CertificateBody {
  const identity: ProfileIdentity = meta.profile
    ? profileIdentity(meta.profile)
    : redactDeep({ name: results.profile.name, baseUrls: results.profile.baseUrls, partners: { gate: [], pools: [] } });
  // Key order is for the reader (verdict first); what is signed is the canonical, sorted form.
  return {
    format: CERTIFICATE_FORMAT,
    verdict: { label: results.summary.verdict, detail: bannerOf(results).detail, certified: results.summary.verdict === 'CERTIFIED' },
    summary: results.summary,
    run: { runId: results.runId, command: results.command, depth: results.depth, startedAt: results.startedAt, finishedAt: results.finishedAt },
    profile: identity,
    timeScales: meta.profile ? { retryScale: meta.profile.timing.retryScale, rateWindowScale: meta.profile.timing.rateWindowScale } : null,
    gates: results.scope?.gates ?? null,
    rampart: { version: results.tool.version },
    catalogue: { sha256: catalogueHash(), requirements: CATALOGUE.length },
    // Both specs carry the same contract date today; src/model/limits.ts holds it once.
    specVersions: { gate: SPEC_VERSION, pools: SPEC_VERSION },
    tools: {
      node: process.version,
      ...(meta.toolsDir ? { k6: stamp(meta.toolsDir, '.k6.version'), toxiproxy: stamp(meta.toolsDir, '.toxiproxy-server.version') } : cachedToolVersions()),
    },
    requirements: results.requirements.map((r) => ({ id: r.id, status: r.status })),
    files: fileHashes(runDir),
  };
}

/** Reads an Ed25519 private key (PKCS8 PEM). Refuses a key git tracks: it would be in the repository. */
export function loadSigningKey(file: string): KeyObject {
  const path = resolve(file);
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    throw new SigningKeyError(
      `cannot read the signing key ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}) — create one with: rampart keys generate --out DIR`,
    );
  }
  if (gitStatusOf(path) === 'tracked')
    throw new SigningKeyError(
      `${file} is tracked by git: a signing key must never be in a repository — generate one outside it (rampart keys generate --out ~/.rampart)`,
    );
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new SigningKeyError(`${file} is not a PEM private key — pass the certify.key written by rampart keys generate`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new SigningKeyError(`${file} is a ${key.asymmetricKeyType} key, not Ed25519 — pass the certify.key written by rampart keys generate`);
  return key;
}

export function signCertificate(body: CertificateBody, key: KeyObject | null): Certificate {
  if (!key) {
    // The note comes right after the format, where a reader looks first.
    const { format, ...rest } = body;
    return {
      format,
      unsigned: true,
      note: 'unsigned: no --sign-key was given, so nothing proves who produced this bundle or that it is unchanged',
      ...rest,
      signature: null,
    };
  }
  const value = sign(null, Buffer.from(canonicalJson(body)), key).toString('base64');
  return { ...body, signature: { alg: 'Ed25519', publicKeyFingerprint: publicKeyFingerprint(key), value } };
}

/** Builds, signs (when a key is given) and writes runDir/certificate.json. Call it last, after every other file of the run. */
export function writeCertificate(
  runDir: string,
  results: RunResults,
  opts: { signKeyFile?: string } & CertificateMeta = {},
): { path: string; signed: boolean; fingerprint?: string } {
  const key = opts.signKeyFile ? loadSigningKey(opts.signKeyFile) : null;
  const cert = signCertificate(buildCertificate(results, runDir, opts), key);
  const text = serialise(cert);
  const findings = scanText(text);
  if (findings.length) throw new Error(`secret scan: refusing to write ${CERTIFICATE_FILE} — ${[...new Set(findings.map((f) => f.kind))].join(', ')}`);
  const path = join(runDir, CERTIFICATE_FILE);
  writeFileSync(path, text);
  return { path, signed: !!key, fingerprint: cert.signature?.publicKeyFingerprint };
}

export type VerifyResult = { ok: true; reason: string; certificate: Certificate } | { ok: false; reason: string; certificate?: Certificate };

/** Reads an Ed25519 public key (SPKI PEM); throws SigningKeyError with one line. */
export function loadPublicKey(file: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SigningKeyError(
      `cannot read the public key ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}) — pass the certify.pub of the key that signed`,
    );
  }
  // createPublicKey would derive the public half of a private key: refuse it, a verifier must not hold the signing key.
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem))
    throw new SigningKeyError(`${file} is a private key — pass the public key (certify.pub); never hand out certify.key`);
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new SigningKeyError(`${file} is not a PEM public key — pass the certify.pub written by rampart keys generate`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(`${file} is a ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}

/**
 * Checks the file is byte-for-byte what was signed, the signature, and every
 * listed file's hash. The reason is one line naming what differs.
 */
export function verifyCertificate(file: string, pubKeyPem: string | KeyObject): VerifyResult {
  const pub = typeof pubKeyPem === 'string' ? createPublicKey(pubKeyPem) : pubKeyPem;
  const text = readFileSync(file, 'utf8');
  let cert: Certificate;
  try {
    cert = JSON.parse(text) as Certificate;
  } catch (e) {
    return { ok: false, reason: `${CERTIFICATE_FILE} is not valid JSON (${(e as Error).message}): it was edited or damaged` };
  }
  if (!cert || typeof cert !== 'object' || cert.format !== CERTIFICATE_FORMAT)
    return { ok: false, reason: `not a rampart certificate (format is not ${CERTIFICATE_FORMAT})` };
  if (!cert.signature)
    return {
      ok: false,
      reason: `the certificate is unsigned: nothing proves who produced it or that it is unchanged${cert.note ? ` (${cert.note})` : ''}`,
      certificate: cert,
    };
  if (serialise(cert) !== text)
    return { ok: false, reason: `${CERTIFICATE_FILE} is not byte-for-byte as written at signing: it was edited or reformatted`, certificate: cert };
  const { signature, ...body } = cert;
  if (signature.alg !== 'Ed25519') return { ok: false, reason: `unsupported signature algorithm ${String(signature.alg)}`, certificate: cert };
  const fingerprint = publicKeyFingerprint(pub);
  if (signature.publicKeyFingerprint !== fingerprint)
    return { ok: false, reason: `signed by another key (${signature.publicKeyFingerprint}); the given public key is ${fingerprint}`, certificate: cert };
  // Node's base64 decoder is lenient (padding bits, stray characters): only the exact encoding of the bytes counts.
  const sig = Buffer.from(String(signature.value), 'base64');
  if (sig.toString('base64') !== signature.value)
    return { ok: false, reason: `the signature value is not the base64 written at signing: ${CERTIFICATE_FILE} was changed`, certificate: cert };
  const good = verify(null, Buffer.from(canonicalJson(body)), pub, sig);
  if (!good) return { ok: false, reason: `the signature does not match the content of ${CERTIFICATE_FILE}: it was changed after signing`, certificate: cert };
  const dir = dirname(resolve(file));
  for (const f of cert.files) {
    const p = resolve(dir, f.path);
    if (!p.startsWith(dir + sep)) return { ok: false, reason: `listed file ${f.path} lies outside the run directory`, certificate: cert };
    if (!existsSync(p) || !statSync(p).isFile()) return { ok: false, reason: `${f.path} is missing from the run directory`, certificate: cert };
    if (sha256(readFileSync(p)) !== f.sha256)
      return { ok: false, reason: `${f.path} changed after certification (its sha256 differs from the certificate)`, certificate: cert };
  }
  // Files added after certification change nothing certified, but the reader should know they are not covered.
  const listed = new Set(cert.files.map((f) => f.path));
  const extra = fileHashes(dir)
    .filter((f) => !listed.has(f.path))
    .map((f) => f.path);
  const uncovered = extra.length
    ? `; not covered by the certificate: ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ` and ${extra.length - 5} more` : ''}`
    : '';
  return { ok: true, reason: `signature valid (${fingerprint}); ${cert.files.length} file(s) match${uncovered}`, certificate: cert };
}
