// rampart's webhook receiver: one HTTP server, one path per partner
// (/hooks/<partnerName>), every attempt recorded with its raw bytes and the
// verdict a careful partner would reach; answers are programmable per partner.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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

export async function startReceiver(opts: ReceiverOptions): Promise<WebhookReceiver> {
  const partners = new Map<string, PartnerState>();
  const waiters = new Set<Waiter>();
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let closed = false;

  const partner = (name: string): PartnerState => {
    let p = partners.get(name);
    if (!p) {
      p = { secrets: [], fallback: DEFAULT_BEHAVIOUR, attempts: [], seenIds: new Set(), faulted: [] };
      partners.set(name, p);
    }
    return p;
  };

  function choose(p: PartnerState, e: { eventId?: string; eventType?: string }): ReceiverBehaviour {
    const prog = p.programme;
    if (prog && prog.answers.length > 0 && (!prog.match || prog.match(e))) return prog.answers.shift()!;
    return p.fallback;
  }

  function record(p: PartnerState, ev: ReceivedEvent): void {
    p.attempts.push(ev);
    if (p.attempts.length > MAX_ATTEMPTS_PER_PARTNER) p.attempts.splice(0, p.attempts.length - MAX_ATTEMPTS_PER_PARTNER);
    if (ev.eventId !== undefined) {
      p.seenIds.add(ev.eventId);
      // Set keeps insertion order: drop the oldest ids first.
      if (p.seenIds.size > MAX_IDS_PER_PARTNER) p.seenIds.delete(p.seenIds.values().next().value!);
    }
    for (const w of [...waiters]) {
      if (w.partnerName !== ev.partnerName) continue;
      let hit = false;
      try {
        hit = w.match(ev);
      } catch {
        hit = false;
      }
      if (hit) {
        waiters.delete(w);
        clearTimeout(w.timer);
        w.resolve(ev);
      }
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
  function stageFault(p: PartnerState, fault: ReceiverFault, req: IncomingMessage, res: ServerResponse, arrivedAt: number): boolean {
    if (fault.kind === 'latency') return false;
    p.faulted.push({ arrivedAt, fault: fault.kind });
    if (p.faulted.length > MAX_ATTEMPTS_PER_PARTNER) p.faulted.shift();
    if (fault.kind === 'reset') {
      req.socket.resetAndDestroy();
      return true;
    }
    hanging.add(res);
    const timer = setTimeout(() => req.socket.destroy(), fault.afterMs);
    res.on('close', () => {
      clearTimeout(timer);
      hanging.delete(res);
    });
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivedAt = Date.now();
    const m = /^\/hooks\/([^/?#]+)\/?(?:[?#].*)?$/.exec(req.url ?? '');
    const staged = m ? channelOf(m[1]!) : undefined;
    const fault = staged !== undefined ? partners.get(staged)?.fault : undefined;
    if (fault && stageFault(partner(staged!), fault, req, res, arrivedAt)) return;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        answer(res, 413);
        return;
      }
      chunks.push(c);
    }
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
    const p = partner(partnerName);
    const rawBody = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
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

    const verification = verify(p, headers, rawBody, partnerName);
    const duplicate = eventId !== undefined && p.seenIds.has(eventId);
    const ev: ReceivedEvent = { partnerName, arrivedAt, headers, rawBody, json, eventId, eventType, verification, duplicate };

    // A careful receiver refuses what it cannot trust; with no secret registered it has nothing to judge by.
    if (!verification.ok && p.secrets.length > 0) {
      ev.answeredStatus = 400;
      record(p, ev);
      answer(res, 400);
      return;
    }
    const chosen = choose(p, { eventId, eventType });
    // A latency fault holds whatever the programme answers.
    const b: ReceiverBehaviour =
      fault?.kind === 'latency'
        ? chosen.kind === 'hang'
          ? chosen
          : { kind: 'delay', ms: fault.ms + (chosen.kind === 'delay' ? chosen.ms : 0), status: chosen.status }
        : chosen;
    if (b.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      record(p, ev);
      return;
    }
    ev.answeredStatus = b.status;
    record(p, ev);
    if (b.kind === 'delay') {
      hanging.add(res);
      const t = setTimeout(() => {
        hanging.delete(res);
        answer(res, b.status);
      }, b.ms);
      res.on('close', () => {
        clearTimeout(t);
        hanging.delete(res);
      });
      return;
    }
    answer(res, b.status);
  }

  function verify(p: PartnerState, headers: Record<string, string>, rawBody: Buffer, channel: string): { ok: boolean; reason?: string } {
    if (p.secrets.length === 0) return { ok: false, reason: 'no signing secret registered for this partner' };
    const sigHeader = headers['gate-signature'] ?? headerMatching(headers, /^[a-z0-9]+-signature$/i)?.[1];
    const r = verifyGateSignature({ rawBody, header: sigHeader, secrets: p.secrets, nowSeconds: Math.floor((opts.now?.(channel) ?? Date.now()) / 1000) });
    if (!r.ok) return { ok: false, reason: r.reason };
    const ts = headerMatching(headers, TIMESTAMP_HEADER);
    if (!ts) return { ok: false, reason: 'no X-<svc>-Timestamp header' };
    if (ts[1].trim() !== String(r.t)) return { ok: false, reason: `${ts[0]} ${ts[1]} differs from the signature t=${r.t}` };
    return { ok: true };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500);
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Senders may hold connections open; never let a slow one block the others.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host;
  const url = `http://${hostForUrl}:${port}`;
  const publicBase = (opts.publicUrl ? opts.publicUrl.replaceAll('{{port}}', String(port)) : url).replace(/\/+$/, '');

  return {
    url,
    urlFor: (name) => `${publicBase}/hooks/${encodeURIComponent(name)}`,
    setSecrets: (name, secrets) => {
      partner(name).secrets = [...secrets];
    },
    program: (name, answers, match) => {
      partner(name).programme = { answers: [...answers], match };
    },
    setDefault: (name, behaviour) => {
      partner(name).fallback = behaviour;
    },
    setFault: (name, fault) => {
      partner(name).fault = fault;
    },
    faulted: (name) => [...(partners.get(name)?.faulted ?? [])],
    attempts: (name) => [...(partners.get(name)?.attempts ?? [])],
    events: (name) => {
      const seen = new Set<string>();
      const out: ReceivedEvent[] = [];
      for (const a of partners.get(name)?.attempts ?? []) {
        if (a.eventId !== undefined) {
          if (seen.has(a.eventId)) continue;
          seen.add(a.eventId);
        }
        out.push(a);
      }
      return out;
    },
    waitFor: (name, match, timeoutMs) => {
      for (const a of partners.get(name)?.attempts ?? []) if (match(a)) return Promise.resolve(a);
      if (closed) return Promise.reject(new Error('webhook receiver is closed'));
      return new Promise<ReceivedEvent>((resolve, reject) => {
        const w: Waiter = {
          partnerName: name,
          match,
          resolve,
          reject,
          timer: setTimeout(
            () => {
              waiters.delete(w);
              reject(new Error(`no matching webhook for ${name} within ${timeoutMs} ms`));
            },
            Math.max(0, timeoutMs),
          ),
        };
        waiters.add(w);
      });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      for (const w of waiters) {
        clearTimeout(w.timer);
        w.reject(new Error('webhook receiver closed'));
      }
      waiters.clear();
      for (const r of hanging) r.destroy();
      hanging.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
