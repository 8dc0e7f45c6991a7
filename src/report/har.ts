// run.har: every exchange of a run as HAR 1.2, for devtools and HAR viewers.
// Everything passes through the same redaction as every other output, and
// the written file goes through the secret scan.
import { STATUS_CODES } from 'node:http';
import { writeFileSync } from 'node:fs';
import { redact, redactHeaders } from '../secrets/index.js';
import type { Exchange } from '../wire/exchange.js';
import { maskAuthorizationBearer, scanText } from '../secrets/index.js';

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { blocked: -1; dns: -1; connect: -1; ssl: -1; send: number; wait: number; receive: number };
  /** Custom fields (HAR allows names starting with "_"): which check sent it. */
  _check?: string;
  _suite?: string;
  _retries: number;
}

export interface Har {
  log: { version: '1.2'; creator: { name: 'rampart'; version: string }; entries: HarEntry[]; comment?: string };
}

export interface HarRecorderOptions {
  creatorVersion: string;
  /** Bodies longer than this many characters are cut (default 256 KB), with a comment saying so. */
  bodyLimit?: number;
  /** Entries kept at most (default 100 000); the rest are counted in log.comment. */
  maxEntries?: number;
}

/** Both masking layers writeRun applies: known shapes and profile secrets, then opaque bearer values. */
const mask = (s: string) => maskAuthorizationBearer(redact(s));

const byteLength = (s: string | undefined) => (s === undefined ? 0 : Buffer.byteLength(s, 'utf8'));

function headerList(h: Record<string, string>): HarNameValue[] {
  return Object.entries(redactHeaders(h)).map(([name, value]) => ({ name, value: mask(value) }));
}

function contentType(h: Record<string, string>): string | undefined {
  const hit = Object.entries(h).find(([k]) => k.toLowerCase() === 'content-type');
  return hit?.[1];
}

export class HarRecorder {
  private readonly entries: HarEntry[] = [];
  private dropped = 0;
  private readonly bodyLimit: number;
  private readonly maxEntries: number;

  constructor(private readonly opts: HarRecorderOptions) {
    this.bodyLimit = opts.bodyLimit ?? 256 * 1024;
    this.maxEntries = opts.maxEntries ?? 100_000;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Body text, redacted before it is cut so a secret split by the limit is still masked. */
  private body(text: string): { text: string; comment?: string } {
    const safe = mask(text);
    if (safe.length <= this.bodyLimit) return { text: safe };
    return { text: safe.slice(0, this.bodyLimit), comment: `cut to ${this.bodyLimit} of ${safe.length} characters` };
  }

  /** Record one exchange; meta names the check (and suite) that sent it. */
  record(ex: Exchange, meta: { check?: string; suite?: string } = {}): void {
    if (this.entries.length >= this.maxEntries) {
      this.dropped++;
      return;
    }
    const url = mask(ex.request.url);
    let queryString: HarNameValue[] = [];
    try {
      queryString = [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
    } catch {
      // A URL that does not parse keeps an empty query list; the url field still shows it.
    }
    const wait = Math.max(0, Math.round(ex.durationMs * 1000) / 1000);
    const reqBody = ex.request.bodyText;
    const resBody = this.body(ex.bodyText ?? '');
    const entry: HarEntry = {
      startedDateTime: new Date(ex.startedAt).toISOString(),
      time: wait,
      request: {
        method: ex.request.method,
        url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: headerList(ex.request.headers),
        queryString,
        headersSize: -1,
        bodySize: byteLength(reqBody),
      },
      response: {
        status: ex.status,
        statusText: STATUS_CODES[ex.status] ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: headerList(ex.headers),
        content: {
          size: byteLength(ex.bodyText),
          mimeType: contentType(ex.headers) ?? 'x-unknown',
          text: resBody.text,
          ...(resBody.comment ? { comment: resBody.comment } : {}),
        },
        redirectURL: ex.headers['location'] ? mask(ex.headers['location']) : '',
        headersSize: -1,
        bodySize: byteLength(ex.bodyText),
      },
      cache: {},
      // The client measures one span from send to the full body: it is all "wait"; the phases it cannot see are -1.
      timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive: 0 },
      _retries: ex.retries,
    };
    if (reqBody !== undefined) {
      const b = this.body(reqBody);
      entry.request.postData = {
        mimeType: contentType(ex.request.headers) ?? 'application/octet-stream',
        text: b.text,
        ...(b.comment ? { comment: b.comment } : {}),
      };
    }
    if (meta.check !== undefined) entry._check = mask(meta.check);
    if (meta.suite !== undefined) entry._suite = meta.suite;
    this.entries.push(entry);
  }

  toHar(): Har {
    const entries = [...this.entries].sort((a, b) => (a.startedDateTime < b.startedDateTime ? -1 : a.startedDateTime > b.startedDateTime ? 1 : 0));
    const log: Har['log'] = { version: '1.2', creator: { name: 'rampart', version: this.opts.creatorVersion }, entries };
    if (this.dropped) log.comment = `${this.dropped} later exchange(s) not recorded: the ${this.maxEntries}-entry limit was reached`;
    return { log };
  }

  /** Writes the HAR file; refuses (throws) when the secret scan finds anything. */
  write(path: string): { path: string; entries: number } {
    const text = mask(JSON.stringify(this.toHar(), null, 2)) + '\n';
    const findings = scanText(text);
    if (findings.length) throw new Error(`secret scan: refusing to write ${path} — ${[...new Set(findings.map((f) => f.kind))].join(', ')}`);
    writeFileSync(path, text);
    return { path, entries: this.entries.length };
  }
}
