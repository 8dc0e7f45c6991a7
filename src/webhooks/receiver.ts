// rampart's webhook receiver: one HTTP server, one path per partner
// (/hooks/<partnerName>), every attempt recorded with its raw bytes and the
// verdict a careful partner would reach; answers are programmable per partner.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { verifyGateSignature } from './verify.js';
import type { ReceivedEvent, ReceiverBehaviour, ReceiverFault, WebhookReceiver } from './types.js';

export interface ReceiverOptions {
  host: string;
  port: number;
  /** The URL the target must call when it differs from the listen address; may contain {{port}}. */
  publicUrl?: string;
  /**
   * "Now" for the 300 s signature skew, per channel: the sending target's clock (a remote sandbox keeps its
   * own), so a receiver on a machine whose clock is off never refuses a fresh delivery. Default: this machine's.
   */
  now?: (channel: string) => number;
}

const MAX_ATTEMPTS_PER_PARTNER = 5000;
const MAX_IDS_PER_PARTNER = 20_000;
const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_BEHAVIOUR: ReceiverBehaviour = { kind: 'status', status: 200 };

const EVENT_ID_HEADER = /^x-[a-z0-9]+-event-id$/i;
const EVENT_TYPE_HEADER = /^x-[a-z0-9]+-event-type$/i;
const TIMESTAMP_HEADER = /^x-[a-z0-9]+-timestamp$/i;

interface Programme {
  answers: ReceiverBehaviour[];
  match?: (e: { eventId?: string; eventType?: string }) => boolean;
}

interface PartnerState {
  secrets: string[];
  programme?: Programme;
  fallback: ReceiverBehaviour;
  fault?: ReceiverFault;
  faulted: { arrivedAt: number; fault: ReceiverFault['kind'] }[];
  attempts: ReceivedEvent[];
  seenIds: Set<string>;
}

interface Waiter {
  partnerName: string;
  match: (e: ReceivedEvent) => boolean;
  resolve: (e: ReceivedEvent) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** The channel a /hooks/<channel> path names, or undefined when it does not decode. */
function channelOf(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function headerMatching(headers: Record<string, string>, re: RegExp): [string, string] | undefined {
  for (const [k, v] of Object.entries(headers)) if (re.test(k)) return [k, v];
  return undefined;
}

/** What the receiver holds: each channel's secrets, programme, fault and attempts; who waits for what; what is held open. */
class ReceiverState {
  readonly partners = new Map<string, PartnerState>();
  readonly waiters = new Set<Waiter>();
  readonly hanging = new Set<ServerResponse>();
  readonly sockets = new Set<Socket>();
  closed = false;

  constructor(readonly opts: ReceiverOptions) {}

  /** A channel's state, made on first use. */
  partner(name: string): PartnerState {
    let p = this.partners.get(name);
    if (!p) {
      p = { secrets: [], fallback: DEFAULT_BEHAVIOUR, attempts: [], seenIds: new Set(), faulted: [] };
      this.partners.set(name, p);
    }
    return p;
  }

  /** The next programmed answer the event matches, else the channel's default. */
  choose(p: PartnerState, e: { eventId?: string; eventType?: string }): ReceiverBehaviour {
    const prog = p.programme;
    if (prog && prog.answers.length > 0 && (!prog.match || prog.match(e))) return prog.answers.shift()!;
    return p.fallback;
  }

  /** Keep an attempt (bounded) and wake whoever waits for it. */
  record(p: PartnerState, ev: ReceivedEvent): void {
    p.attempts.push(ev);
    if (p.attempts.length > MAX_ATTEMPTS_PER_PARTNER) p.attempts.splice(0, p.attempts.length - MAX_ATTEMPTS_PER_PARTNER);
    if (ev.eventId !== undefined) {
      p.seenIds.add(ev.eventId);
      // Set keeps insertion order: drop the oldest ids first.
      if (p.seenIds.size > MAX_IDS_PER_PARTNER) p.seenIds.delete(p.seenIds.values().next().value!);
    }
    for (const w of [...this.waiters]) {
      if (w.partnerName !== ev.partnerName) continue;
      let hit = false;
      try {
        hit = w.match(ev);
      } catch {
        hit = false;
      }
      if (hit) {
        this.waiters.delete(w);
        clearTimeout(w.timer);
        w.resolve(ev);
      }
    }
  }

  /** Hold an answer open until the sender (or close) ends it. */
  hold(res: ServerResponse, onClose?: () => void): void {
    this.hanging.add(res);
    res.on('close', () => {
      onClose?.();
      this.hanging.delete(res);
    });
  }
}

function answer(res: ServerResponse, status: number): void {
  if (res.writableEnded || res.destroyed) return;
  const ok = status >= 200 && status < 300;
  const body = JSON.stringify(ok ? { received: true } : { error: status === 400 ? 'invalid signature or timestamp' : `programmed ${status}` });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** A staged reset or timeout: the attempt never reaches the partner (nothing recorded as received). */
function stageFault(state: ReceiverState, p: PartnerState, fault: ReceiverFault, req: IncomingMessage, res: ServerResponse, arrivedAt: number): boolean {
  if (fault.kind === 'latency') return false;
  p.faulted.push({ arrivedAt, fault: fault.kind });
  if (p.faulted.length > MAX_ATTEMPTS_PER_PARTNER) p.faulted.shift();
  if (fault.kind === 'reset') {
    req.socket.resetAndDestroy();
    return true;
  }
  const timer = setTimeout(() => req.socket.destroy(), fault.afterMs);
  state.hold(res, () => clearTimeout(timer));
  return true;
}

/** The request's body, or undefined when it outgrew the limit (answered 413). */
async function readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_BODY_BYTES) {
      answer(res, 413);
      return undefined;
    }
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

function lowerCaseHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return headers;
}

/** The body as JSON (undefined when it is not), and the event's id and type: from the envelope, else its headers. */
function eventOf(rawBody: Buffer, headers: Record<string, string>): { json: any; eventId?: string; eventType?: string } {
  let json: any;
  try {
    json = rawBody.length ? JSON.parse(rawBody.toString('utf8')) : undefined;
  } catch {
    json = undefined;
  }
  const env = json && typeof json === 'object' ? json : {};
  const idFromBody = typeof env.id === 'string' ? env.id : typeof env.eventId === 'string' ? env.eventId : undefined;
  const eventId = idFromBody ?? headerMatching(headers, EVENT_ID_HEADER)?.[1];
  const eventType = (typeof env.type === 'string' ? env.type : undefined) ?? headerMatching(headers, EVENT_TYPE_HEADER)?.[1];
  return { json, eventId, eventType };
}

/** The verdict a careful partner reaches on an attempt's signature and timestamp, on the sending target's clock. */
function verify(
  p: PartnerState,
  headers: Record<string, string>,
  rawBody: Buffer,
  channel: string,
  now: ReceiverOptions['now'],
): { ok: boolean; reason?: string } {
  if (p.secrets.length === 0) return { ok: false, reason: 'no signing secret registered for this partner' };
  const sigHeader = headers['gate-signature'] ?? headerMatching(headers, /^[a-z0-9]+-signature$/i)?.[1];
  const r = verifyGateSignature({ rawBody, header: sigHeader, secrets: p.secrets, nowSeconds: Math.floor((now?.(channel) ?? Date.now()) / 1000) });
  if (!r.ok) return { ok: false, reason: r.reason };
  const ts = headerMatching(headers, TIMESTAMP_HEADER);
  if (!ts) return { ok: false, reason: 'no X-<svc>-Timestamp header' };
  if (ts[1].trim() !== String(r.t)) return { ok: false, reason: `${ts[0]} ${ts[1]} differs from the signature t=${r.t}` };
  return { ok: true };
}

/** A latency fault holds whatever the programme answers. */
function underFault(chosen: ReceiverBehaviour, fault: ReceiverFault | undefined): ReceiverBehaviour {
  if (fault?.kind !== 'latency' || chosen.kind === 'hang') return chosen;
  return { kind: 'delay', ms: fault.ms + (chosen.kind === 'delay' ? chosen.ms : 0), status: chosen.status };
}

/** Record the attempt and answer it as the behaviour says: at once, after a delay, or never. */
function respond(state: ReceiverState, p: PartnerState, ev: ReceivedEvent, b: ReceiverBehaviour, res: ServerResponse): void {
  if (b.kind === 'hang') {
    state.hold(res);
    state.record(p, ev);
    return;
  }
  ev.answeredStatus = b.status;
  state.record(p, ev);
  if (b.kind === 'delay') {
    const t = setTimeout(() => {
      state.hanging.delete(res);
      answer(res, b.status);
    }, b.ms);
    state.hold(res, () => clearTimeout(t));
    return;
  }
  answer(res, b.status);
}

async function handle(state: ReceiverState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrivedAt = Date.now();
  const m = /^\/hooks\/([^/?#]+)\/?(?:[?#].*)?$/.exec(req.url ?? '');
  const staged = m ? channelOf(m[1]!) : undefined;
  const fault = staged !== undefined ? state.partners.get(staged)?.fault : undefined;
  if (fault && stageFault(state, state.partner(staged!), fault, req, res, arrivedAt)) return;
  const rawBody = await readBody(req, res);
  if (!rawBody) return;
  if (!m || req.method !== 'POST') {
    answer(res, 404);
    return;
  }
  let partnerName: string;
  try {
    partnerName = decodeURIComponent(m[1]!);
  } catch {
    answer(res, 404);
    return;
  }
  const p = state.partner(partnerName);
  const headers = lowerCaseHeaders(req);
  const { json, eventId, eventType } = eventOf(rawBody, headers);
  const verification = verify(p, headers, rawBody, partnerName, state.opts.now);
  const duplicate = eventId !== undefined && p.seenIds.has(eventId);
  const ev: ReceivedEvent = { partnerName, arrivedAt, headers, rawBody, json, eventId, eventType, verification, duplicate };

  // A careful receiver refuses what it cannot trust; with no secret registered it has nothing to judge by.
  if (!verification.ok && p.secrets.length > 0) {
    ev.answeredStatus = 400;
    state.record(p, ev);
    answer(res, 400);
    return;
  }
  respond(state, p, ev, underFault(state.choose(p, { eventId, eventType }), fault), res);
}

/** The HTTP server: every request handled, every connection tracked (close ends them), no sender able to block others. */
function createReceiverServer(state: ReceiverState): Server {
  const server = createServer((req, res) => {
    handle(state, req, res).catch(() => {
      if (!res.headersSent) answer(res, 500);
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    state.sockets.add(s);
    s.on('close', () => state.sockets.delete(s));
  });
  // Senders may hold connections open; never let a slow one block the others.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Listen on the host and port asked for; the port bound (an ephemeral one for port 0). */
async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** The URL the receiver listens on, and the base a target must call (the public URL when one is set). */
function addressesOf(opts: ReceiverOptions, port: number): { url: string; publicBase: string } {
  const hostForUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host;
  const url = `http://${hostForUrl}:${port}`;
  const publicBase = (opts.publicUrl ? opts.publicUrl.replaceAll('{{port}}', String(port)) : url).replace(/\/+$/, '');
  return { url, publicBase };
}

/** Unique events of a channel: the first attempt per event id (attempts without one each count). */
function firstAttempts(attempts: readonly ReceivedEvent[]): ReceivedEvent[] {
  const seen = new Set<string>();
  const out: ReceivedEvent[] = [];
  for (const a of attempts) {
    if (a.eventId !== undefined) {
      if (seen.has(a.eventId)) continue;
      seen.add(a.eventId);
    }
    out.push(a);
  }
  return out;
}

/** The first attempt (past or future) of a channel matching `match`, or a rejection after timeoutMs. */
function waitFor(state: ReceiverState, name: string, match: (e: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent> {
  for (const a of state.partners.get(name)?.attempts ?? []) if (match(a)) return Promise.resolve(a);
  if (state.closed) return Promise.reject(new Error('webhook receiver is closed'));
  return new Promise<ReceivedEvent>((resolve, reject) => {
    const w: Waiter = {
      partnerName: name,
      match,
      resolve,
      reject,
      timer: setTimeout(
        () => {
          state.waiters.delete(w);
          reject(new Error(`no matching webhook for ${name} within ${timeoutMs} ms`));
        },
        Math.max(0, timeoutMs),
      ),
    };
    state.waiters.add(w);
  });
}

/** Stop: every waiter rejected, every held answer and connection ended, the server closed. */
async function closeReceiver(state: ReceiverState, server: Server): Promise<void> {
  if (state.closed) return;
  state.closed = true;
  for (const w of state.waiters) {
    clearTimeout(w.timer);
    w.reject(new Error('webhook receiver closed'));
  }
  state.waiters.clear();
  for (const r of state.hanging) r.destroy();
  state.hanging.clear();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    for (const s of state.sockets) s.destroy();
  });
}

export async function startReceiver(opts: ReceiverOptions): Promise<WebhookReceiver> {
  const state = new ReceiverState(opts);
  const server = createReceiverServer(state);
  const { url, publicBase } = addressesOf(opts, await listen(server, opts.host, opts.port));
  return {
    url,
    urlFor: (name) => `${publicBase}/hooks/${encodeURIComponent(name)}`,
    setSecrets: (name, secrets) => {
      state.partner(name).secrets = [...secrets];
    },
    program: (name, answers, match) => {
      state.partner(name).programme = { answers: [...answers], match };
    },
    setDefault: (name, behaviour) => {
      state.partner(name).fallback = behaviour;
    },
    setFault: (name, fault) => {
      state.partner(name).fault = fault;
    },
    faulted: (name) => [...(state.partners.get(name)?.faulted ?? [])],
    attempts: (name) => [...(state.partners.get(name)?.attempts ?? [])],
    events: (name) => firstAttempts(state.partners.get(name)?.attempts ?? []),
    waitFor: (name, match, timeoutMs) => waitFor(state, name, match, timeoutMs),
    close: () => closeReceiver(state, server),
  };
}
