// A ready `curl` command that replays one recorded request, with every secret
// replaced by the environment variable the profile read it from (${GATE_SK_1})
// or by a named placeholder variable, never by its value.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from '../secrets/index.js';
import type { Exchange } from '../wire/exchange.js';
import { secretEnvRefs } from '../profile/load.js';
import type { ExchangeRecord } from './results.js';

export interface ReproduceContext {
  /** Partner label of the client that sent it: names the placeholder variable when the secret's variable is unknown. */
  partner?: string;
  /** The run directory: a body over inlineLimit bytes is written to <runDir>/repro/<bodyName>.body. */
  runDir?: string;
  /** File name stem for a large body (unique per failure, e.g. a slug of the check name). */
  bodyName?: string;
  /** Inline bodies up to this many bytes (default 2048). */
  inlineLimit?: number;
  /** Secret value → variable name; default: what src/profile/load.ts recorded from ${VAR} references. */
  secretRefs?: { value: string; name: string }[];
}

export interface Reproduction {
  command: string;
  /** Variables the command reads; set them before running it. */
  env: string[];
  notes: string[];
  /** The body file, relative to the run directory, when the body was too large to inline. */
  bodyFile?: string;
}

type Piece = { lit: string } | { env: string };

/** One shell word from literal text and variable references: 'lit'"${VAR}"'lit'. */
export function shellWord(pieces: Piece[]): string {
  // Adjacent literals share one pair of quotes.
  const merged: Piece[] = [];
  for (const p of pieces) {
    const last = merged.at(-1);
    if ('lit' in p && last && 'lit' in last) merged[merged.length - 1] = { lit: last.lit + p.lit };
    else merged.push(p);
  }
  const parts = merged.filter((p) => ('lit' in p ? p.lit !== '' : true)).map((p) => ('lit' in p ? `'${p.lit.replace(/'/g, `'\\''`)}'` : `"\${${p.env}}"`));
  return parts.length ? parts.join('') : "''";
}

/** Headers curl sets itself or that would mislead a replay. */
const DROP_HEADERS = new Set(['host', 'content-length', 'connection', 'user-agent', 'accept-encoding', 'transfer-encoding', 'keep-alive']);
const DEFAULT_INLINE_LIMIT = 2048;

interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** An ExchangeRecord: secrets are already masked and the body may have been cut. */
  redacted: boolean;
}

function normalise(x: Exchange | ExchangeRecord): Request {
  if ('request' in x && x.request && typeof x.request === 'object')
    return { method: x.request.method, url: x.request.url, headers: x.request.headers, body: x.request.bodyText, redacted: false };
  const r = x as ExchangeRecord;
  return { method: r.method, url: r.url, headers: r.requestHeaders ?? {}, body: r.requestBody, redacted: true };
}

function envName(s: string): string {
  return (
    s
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'PARTNER'
  );
}

/** The placeholder for a credential the profile holds literally (or a report already masked). */
function placeholderFor(credential: string, partner: string | undefined): { name: string; what: string } {
  const p = envName(partner ?? 'partner');
  const m = /^(sk|pk)_(test|live)_/.exec(credential);
  if (!m) return { name: `RAMPART_SECRET_${p}`, what: `the credential ${partner ?? 'the partner'} sent` };
  const kind = `${m[2] === 'live' ? 'LIVE_' : ''}${m[1] === 'sk' ? 'SECRET' : 'PUBLISHABLE'}`;
  return { name: `RAMPART_${kind}_${p}`, what: `${partner ?? 'the partner'}'s ${m[2]} ${m[1] === 'sk' ? 'secret' : 'publishable'} key` };
}

export function curlFor(record: Exchange | ExchangeRecord, ctx: ReproduceContext = {}): Reproduction {
  const req = normalise(record);
  const refs = ctx.secretRefs ?? secretEnvRefs();
  const env = new Set<string>();
  const notes: string[] = [];

  /** Secrets that came from a variable become that variable; anything else secret-shaped is masked. */
  const pieces = (text: string, where: string): Piece[] => {
    let out: Piece[] = [{ lit: text }];
    for (const { value, name } of refs) {
      if (!text.includes(value)) continue;
      out = out.flatMap((p) => ('lit' in p ? p.lit.split(value).flatMap((lit, i) => (i === 0 ? [{ lit }] : [{ env: name }, { lit }])) : [p]));
      env.add(name);
    }
    let masked = false;
    out = out.map((p) => {
      if (!('lit' in p)) return p;
      const lit = redact(p.lit);
      if (lit !== p.lit) masked = true;
      return { lit };
    });
    if (masked && !req.redacted) notes.push(`the ${where} held a secret rampart cannot name (masked as [redacted]): put its value back before running`);
    if (req.redacted && /\[redacted\]/.test(out.map((p) => ('lit' in p ? p.lit : '')).join('')))
      notes.push(`the ${where} was masked in the report ([redacted]): put the value back before running`);
    return out;
  };

  const credential = (header: string, raw: string): Piece[] => {
    const scheme = /^(Bearer|Basic)\s+/i.exec(raw)?.[0] ?? '';
    const value = raw.slice(scheme.length);
    const known = refs.find((r) => r.value === value);
    if (known) {
      env.add(known.name);
      return [{ lit: `${header}: ${scheme}` }, { env: known.name }];
    }
    // A deliberately malformed credential (a 401 check) is no secret: replay it as sent.
    if (!req.redacted && redact(value) === value && !/\[redacted\]/.test(value)) return [{ lit: `${header}: ${raw}` }];
    if (header.toLowerCase() === 'x-embed-token') {
      env.add('RAMPART_EMBED_TOKEN');
      notes.push('set RAMPART_EMBED_TOKEN to a fresh embed token (POST /embed/bootstrap): embed tokens expire');
      return [{ lit: `${header}: ${scheme}` }, { env: 'RAMPART_EMBED_TOKEN' }];
    }
    const ph = placeholderFor(value, ctx.partner);
    env.add(ph.name);
    notes.push(`set ${ph.name} to ${ph.what}${req.redacted ? '' : ' (the profile holds it literally; a ${VAR} reference there would name it here)'}`);
    return [{ lit: `${header}: ${scheme}` }, { env: ph.name }];
  };

  // -i shows the status line and headers; -w '\n' ends the output with a newline (bodies rarely do).
  const lines: string[] = [`curl -sS -i -w '\\n'${req.method === 'GET' ? '' : ` -X ${req.method}`} ${shellWord(pieces(req.url, 'URL'))}`];
  for (const [name, value] of Object.entries(req.headers)) {
    const lower = name.toLowerCase();
    if (DROP_HEADERS.has(lower)) continue;
    const word =
      lower === 'authorization' || lower === 'x-embed-token' || lower === 'proxy-authorization'
        ? credential(name, value)
        : [{ lit: `${name}: ` }, ...pieces(value, `${name} header`)];
    lines.push(`-H ${shellWord(word)}`);
  }

  let bodyFile: string | undefined;
  if (req.body !== undefined) {
    if (req.redacted && /… \[\d+ more chars\]$/.test(req.body)) notes.push('the report kept only the first 4 KB of the body: the command sends what was kept');
    const body = pieces(req.body, 'body');
    const limit = ctx.inlineLimit ?? DEFAULT_INLINE_LIMIT;
    if (Buffer.byteLength(req.body, 'utf8') > limit && ctx.runDir) {
      // A file cannot expand variables: a secret from one is left as ${NAME} for envsubst.
      const text = body.map((p) => ('lit' in p ? p.lit : `\${${p.env}}`)).join('');
      if (body.some((p) => 'env' in p)) notes.push('the body file holds ${VAR} where a secret was: run it through envsubst first');
      bodyFile = `repro/${(ctx.bodyName ?? 'request').replace(/[^A-Za-z0-9._-]+/g, '-')}.body`;
      mkdirSync(join(ctx.runDir, 'repro'), { recursive: true });
      writeFileSync(join(ctx.runDir, bodyFile), text);
      lines.push(`--data-binary @${shellWord([{ lit: bodyFile }])}`);
      notes.push(`run it from the run directory: the body is in ${bodyFile}`);
    } else {
      lines.push(`--data-binary ${shellWord(body)}`);
    }
  }
  return { command: lines.join(' \\\n  '), env: [...env], notes: [...new Set(notes)], bodyFile };
}

/**
 * The steps before a stateful failure and the failing request, as one script:
 * ids in later steps are the original run's, so substitute what the earlier steps return.
 */
export function reproduceSteps(records: (Exchange | ExchangeRecord)[], ctx: ReproduceContext = {}): Reproduction {
  const parts = records.map((r, i) => {
    const rep = curlFor(r, { ...ctx, bodyName: `${ctx.bodyName ?? 'request'}-step${i + 1}` });
    const req = normalise(r);
    let path = req.url;
    try {
      path = new URL(req.url).pathname;
    } catch {
      // Keep the raw URL in the comment.
    }
    const status = 'status' in r ? r.status : undefined;
    return { rep, head: `# step ${i + 1}/${records.length}: ${req.method} ${redact(path)}${status !== undefined ? ` → ${status}` : ''}` };
  });
  const notes = [...new Set(parts.flatMap((p) => p.rep.notes))];
  if (records.length > 1) notes.unshift("ids in later steps are the original run's: use the ids the earlier steps return");
  // The notes travel in the script itself as comments: a caller that keeps only the command keeps them too.
  const header = notes.length ? `${notes.map((n) => `# note: ${n}`).join('\n')}\n\n` : '';
  return {
    command: header + parts.map((p) => `${p.head}\n${p.rep.command}`).join('\n\n'),
    env: [...new Set(parts.flatMap((p) => p.rep.env))],
    notes,
    bodyFile: parts.find((p) => p.rep.bodyFile)?.rep.bodyFile,
  };
}
