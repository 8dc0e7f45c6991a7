// The embedded reference target: four node:http servers (Gate sandbox and
// production, Pools sandbox and production), each serving its API under /v1.
// One request pipeline for all: request id, body, Req, Gate rate limiting,
// router dispatch, error envelope (Gate: gate/errors.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Profile } from '../profile/schema.js';
import { ALL_FAULTS } from './faults.js';
import { issueLiveKeys } from './liveKeys.js';
import { issuePoolsLiveKeys } from './pools/liveKeys.js';
import { gateErrorReadings, gateErrorReply, gateServerErrorReply, type GateErrorReadings } from './gate/errors.js';
import { gateRequestIdStyle } from './gate/wire.js';
import { createGateService } from './gate/index.js';
import { DateHeaders, JumpingClock, OffsetClock, systemClock, type Clock } from './kit/clock.js';
import { ActiveFaults } from './kit/faults.js';
import { HttpError, newRequestId, readBody, send, sendError, type Req, type Router } from './kit/http.js';
import { WebhookOutbox } from './kit/outbox.js';
import { GateRateLimiter } from './kit/rateLimiter.js';
import { createPoolsService } from './pools/index.js';
import { poolsBasePath } from './pools/wire.js';
import { fillHistory } from './history.js';
import { nightFaultsOn, slowDelayMs } from './nightFaults.js';

export interface RunningReference {
  /** The profile with base URLs rewritten to the real ports. */
  profile: Profile;
  urls: { gateSandbox: string; gateProduction: string; poolsSandbox: string; poolsProduction: string };
  faults: string[];
  /** The routes each service serves (below /v1), for tests that walk every route. */
  routes: { gate: { method: string; pattern: string }[]; pools: { method: string; pattern: string }[] };
  close(): Promise<void>;
}

export interface StartReferenceOptions {
  profile: Profile;
  faults?: string[];
  host?: string;
  ephemeralPorts?: boolean;
  log?: (l: string) => void;
  /** Injected clock (tests); the system clock by default. */
  clock?: Clock;
}

const BASE = '/v1';

function portOf(url: string | undefined): number {
  if (!url) return 0;
  const u = new URL(url);
  return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

/** Validate fault names; an unknown one throws listing every valid name. */
export function resolveFaults(names: string[]): string[] {
  const known = new Set(ALL_FAULTS.map((f) => f.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new Error(`Unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Valid faults: ${[...known].sort().join(', ')}`);
  }
  return [...new Set(names)];
}

function clientKey(req: IncomingMessage): string {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.length > 0) return `auth:${auth}`;
  const embed = req.headers['x-embed-token'];
  if (typeof embed === 'string' && embed.length > 0) return `embed:${embed}`;
  return `ip:${req.socket.remoteAddress ?? '?'}`;
}

interface Pipeline {
  service: 'gate' | 'pools';
  /** The path the base address ends in (/v1; the pools world may take another, wire.ts poolsBasePath). */
  base: string;
  router: Router;
  env: 'test' | 'live';
  limiter: GateRateLimiter | null;
  faults: ActiveFaults;
  log: (l: string) => void;
  /** The Date header of each answer: the target's clock, as a remote sandbox's says its time. */
  dates: DateHeaders;
  /** Told of every answer (a clock that jumps between Gate answers counts them). */
  answered: () => unknown;
  requestIdStyle: 'uuid' | 'base62';
  /** The generic text of a Gate 500 (reference.serverErrorMessage; absent: the envelope's own). */
  serverErrorMessage?: string;
  /** What the Gate world's errors leave open, as it chose (code values, doc_url, the joined message). */
  gateErrors?: GateErrorReadings;
}

function setDate(p: Pipeline, res: ServerResponse): void {
  const date = p.dates.next();
  p.answered();
  // Node adds a Date header of its own unless told not to: an answer without one is a seeded fault.
  if (date === undefined) res.sendDate = false;
  else res.setHeader('date', date);
}

async function handle(p: Pipeline, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = newRequestId(p.requestIdStyle);
  try {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const fullPath = q === -1 ? url : url.slice(0, q);
    if (fullPath !== p.base && !fullPath.startsWith(`${p.base}/`)) throw new HttpError(404, `Unknown route: ${req.method} ${fullPath}`, 'route_not_found');
    const path = fullPath.slice(p.base.length) || '/';
    const method = (req.method ?? 'GET').toUpperCase();
    const slow = slowDelayMs(p.faults, p.service, method, path);
    if (slow) await new Promise((r) => setTimeout(r, slow));
    const m = p.router.match(method, path);
    // A race fault of the limiter records the request a round trip later (src/reference/gate/raceFaults.ts): awaited.
    const counted = p.limiter?.check(clientKey(req), method, path, m.pattern ? `${method} ${m.pattern}` : `${method} ?`);
    if (counted) await counted;
    if (!m.handler) throw new HttpError(404, `Unknown route: ${method} ${p.base}${path}`, 'route_not_found');
    const rawBody = await readBody(req);
    const r: Req = {
      method,
      path,
      query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
      headers: req.headers,
      rawBody,
      params: m.params,
      requestId,
      raw: req,
      env: p.env,
    };
    const reply = await m.handler(r);
    setDate(p, res);
    send(res, requestId, reply);
  } catch (err) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    setDate(p, res);
    if (err instanceof HttpError) {
      if (p.service === 'gate') send(res, requestId, gateErrorReply(p.faults, err, requestId, p.gateErrors));
      else sendError(res, requestId, err);
      return;
    }
    // The message stays in our log (never a secret: handlers do not put keys in errors); the client sees a generic text.
    p.log(`500 ${req.method} ${(req.url ?? '').split('?')[0]} request_id=${requestId}: ${(err as Error)?.stack ?? String(err)}`);
    if (p.service === 'gate') send(res, requestId, gateServerErrorReply(p.faults, err, requestId, p.serverErrorMessage, p.gateErrors));
    else sendError(res, requestId, new HttpError(500, 'internal', 'internal_error', 'server_error'));
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startReference(opts: StartReferenceOptions): Promise<RunningReference> {
  const faultNames = resolveFaults(opts.faults ?? []);
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? (() => {});
  // A fault of some starts only is drawn here, once per start (nightFaults.ts).
  const faults = new ActiveFaults(nightFaultsOn(faultNames, log));
  const issued = issuePoolsLiveKeys(issueLiveKeys(opts.profile));
  const ref = issued.reference;
  const steady = new OffsetClock(opts.clock ?? systemClock, (ref?.clockOffsetSeconds ?? 0) * 1000);
  // What the target shows of its time (objects, webhooks, Date headers); it jumps only under a seeded fault.
  const clock = new JumpingClock(steady, faults);
  const outbox = new WebhookOutbox({
    clock,
    timeScale: ref?.timeScale ?? 1,
    attemptTimeoutMs: ref?.attemptTimeoutMs ?? 10_000,
    idStyle: ref?.idStyle,
    reach: ref?.webhookReach,
    faults,
    log,
  });
  const gate = createGateService({ profile: issued, faults, clock, outbox });
  const limiter = (ref?.rateLimits ?? true) ? new GateRateLimiter(steady, faults, issued.timing.rateWindowScale ?? 1, issued) : null;
  const pools = issued.pools ? createPoolsService({ profile: issued, faults, clock, outbox }) : null;

  if (ref?.history) {
    // Written before any server listens, with the faults off: a seeded defect breaks what the checks do, not the past.
    const made = await faults.without(() =>
      fillHistory({ profile: issued, clock: steady, gateRouter: gate.router, poolsRouter: pools?.router ?? null, outbox }),
    );
    log(`rampart reference: history written: ${made.sessions} sessions, ${made.customers} customers, ${made.deliveries} deliveries, ${made.trades} trades`);
  }

  const dates = {
    gate: new DateHeaders('gate', clock, faults, ref?.dateHeaderOutliers, issued),
    pools: new DateHeaders('pools', clock, faults, ref?.dateHeaderOutliers),
  };
  const servers: Server[] = [];
  const start = async (router: Router, env: 'test' | 'live', withLimiter: boolean, baseUrl: string | undefined): Promise<string> => {
    const service = withLimiter ? 'gate' : 'pools';
    const base = service === 'pools' ? poolsBasePath(issued) : BASE;
    const pipeline: Pipeline = {
      service,
      base,
      router,
      env,
      limiter: withLimiter ? limiter : null,
      faults,
      log,
      dates: dates[service],
      answered: () => service === 'gate' && clock.answered(),
      // The Gate request ids follow the Gate world's choice (gate.errors.requestId), the pools ids the knob.
      requestIdStyle: service === 'gate' ? gateRequestIdStyle(issued) : (ref?.requestIdStyle ?? 'uuid'),
      serverErrorMessage: ref?.serverErrorMessage,
      gateErrors: service === 'gate' ? gateErrorReadings(issued) : undefined,
    };
    const server = createServer((req, res) => {
      void handle(pipeline, req, res);
    });
    server.keepAliveTimeout = 5_000;
    servers.push(server);
    const port = await listen(server, opts.ephemeralPorts ? 0 : portOf(baseUrl), host);
    const hostPart = host.includes(':') ? `[${host}]` : host;
    return `http://${hostPart}:${port}${base}`;
  };

  try {
    const p = issued;
    const gateSandbox = await start(gate.router, 'test', true, p.gate.baseUrls.sandbox);
    const gateProduction = await start(gate.router, 'live', true, p.gate.baseUrls.production);
    let poolsSandbox = '';
    let poolsProduction = '';
    if (pools && p.pools) {
      poolsSandbox = await start(pools.router, 'test', false, p.pools.baseUrls.sandbox);
      poolsProduction = await start(pools.router, 'live', false, p.pools.baseUrls.production);
    }
    const profile: Profile = {
      ...p,
      gate: { ...p.gate, baseUrls: { ...p.gate.baseUrls, sandbox: gateSandbox, production: gateProduction } },
      ...(p.pools ? { pools: { ...p.pools, baseUrls: { ...p.pools.baseUrls, sandbox: poolsSandbox, production: poolsProduction } } } : {}),
    };
    log(
      `rampart reference: gate ${gateSandbox} (sandbox), ${gateProduction} (production)${poolsSandbox ? `; pools ${poolsSandbox} (sandbox), ${poolsProduction} (production)` : ''}${faultNames.length ? `; faults: ${faultNames.join(', ')}` : ''}`,
    );
    let closed = false;
    return {
      profile,
      urls: { gateSandbox, gateProduction, poolsSandbox, poolsProduction },
      faults: faultNames,
      routes: { gate: gate.router.list(), pools: pools?.router.list() ?? [] },
      async close() {
        if (closed) return;
        closed = true;
        await outbox.close();
        await Promise.all(
          servers.map(
            (s) =>
              new Promise<void>((resolve) => {
                s.close(() => resolve());
                s.closeAllConnections();
              }),
          ),
        );
      },
    };
  } catch (err) {
    await outbox.close();
    for (const s of servers) {
      s.close();
      s.closeAllConnections();
    }
    throw err;
  }
}
