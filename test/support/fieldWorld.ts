// The field world: the embedded target presented as a partner's remote sandbox,
// for rampart's own tests. Its base URLs sit behind Toxiproxy with latency and
// jitter each way, its clock runs off rampart's, its webhook sender reaches the
// harness only through a public URL (a tunnel: a latency proxy in front of the
// receiver's fixed port), and it may hold one key, short lifetimes and a history.
// The harness gets only the profile this writes: nothing else of the world.
import type { Proxy } from 'toxiproxy-node-client';
import { freePort, startToxiproxy, type ToxiproxyHandle } from '../../src/chaos/toxiproxy.js';
import { oneKeyProfile } from '../../src/plan/oneKey.js';
import { loadProfile } from '../../src/profile/load.js';
import type { Profile } from '../../src/profile/schema.js';
import { startReference, type RunningReference } from '../../src/reference/server.js';
import { mulberry32 } from './limiters.js';

export interface FieldWorldOptions {
  /** Base profile (default: the embedded target's own). */
  profileFile?: string;
  faults?: string[];
  /** The target's clock ahead of rampart's (negative: behind), seconds. Default +2. */
  clockOffsetSeconds?: number;
  /** Latency each way on every API base and on the webhook path, ms (default 100 ± 30). */
  latencyMs?: number;
  jitterMs?: number;
  /** One Gate partner with one key and one funded pools partner (src/plan/oneKey.ts). */
  oneKey?: boolean;
  /** Declared short lifetimes, waited out in real time (their expire triggers are removed). */
  lifetimes?: { signedQuoteSeconds: number; sessionSeconds: number };
  /** Objects each partner already holds. */
  history?: { sessions: number; customers: number; trades: number; deliveries: number };
  /** Partner order in the profile: as written, reversed, or a seeded shuffle. */
  order?: 'as-is' | 'reverse' | { seed: number };
  rateWindowScale?: number;
  retryScale?: number;
  /** The target keeps and declares real time for the retry schedule (a fast variant of a real-time fault). */
  realTime?: boolean;
  /** A Toxiproxy server to put the world's proxies on (shared by many worlds); default: one of its own. */
  toxiproxy?: ToxiproxyHandle;
}

export interface FieldWorld {
  /** What the harness is given: proxied base URLs, the public webhook URL, the keys. */
  profile: Profile;
  reference: RunningReference;
  toxiproxy: ToxiproxyHandle;
  close(): Promise<void>;
}

export function reorder<T>(xs: readonly T[], order: FieldWorldOptions['order']): T[] {
  if (!order || order === 'as-is') return [...xs];
  if (order === 'reverse') return [...xs].reverse();
  const rnd = mulberry32(order.seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The world's own profile (what the target is built from), before any URL is known. */
export function fieldTargetProfile(opts: FieldWorldOptions): Profile {
  let p = loadProfile(opts.profileFile ?? 'fixtures/profiles/embedded.json');
  if (opts.oneKey) p = oneKeyProfile(p, { rateWindowScale: opts.rateWindowScale });
  const triggers = { ...p.gate.triggers };
  if (opts.lifetimes) {
    delete triggers.expireSession;
    delete triggers.expireSignedQuote;
  }
  return {
    ...p,
    name: `${p.name}-field`,
    gate: { ...p.gate, partners: reorder(p.gate.partners, opts.order), triggers },
    ...(p.pools ? { pools: { ...p.pools, partners: reorder(p.pools.partners, opts.order) } } : {}),
    timing: {
      ...p.timing,
      ...(opts.rateWindowScale !== undefined ? { rateWindowScale: opts.rateWindowScale } : {}),
      ...(opts.retryScale !== undefined ? { retryScale: opts.retryScale } : {}),
      ...(opts.realTime ? { retryScale: 1 } : {}),
      ...(opts.lifetimes ? { sessionLifetimeSeconds: opts.lifetimes.sessionSeconds, signedQuoteLifetimeSeconds: opts.lifetimes.signedQuoteSeconds } : {}),
    },
    reference: {
      ...p.reference!,
      clockOffsetSeconds: opts.clockOffsetSeconds ?? 2,
      ...(opts.retryScale !== undefined ? { timeScale: opts.retryScale } : {}),
      ...(opts.realTime ? { timeScale: 1 } : {}),
      ...(opts.lifetimes ? { sessionLifetimeSeconds: opts.lifetimes.sessionSeconds, signedQuoteLifetimeSeconds: opts.lifetimes.signedQuoteSeconds } : {}),
      ...(opts.history ? { history: opts.history } : {}),
    },
  };
}

async function latencyProxy(tp: ToxiproxyHandle, name: string, upstream: string, latency: number, jitter: number): Promise<Proxy> {
  const proxy = await tp.api.createProxy({ name, listen: '127.0.0.1:0', upstream });
  for (const stream of ['upstream', 'downstream'] as const)
    await proxy.addToxic({ name: `${name}-${stream}`, type: 'latency', stream, toxicity: 1, attributes: { latency, jitter } } as never);
  return proxy;
}

const hostPort = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port}`;
};

let worlds = 0;

export async function startFieldWorld(opts: FieldWorldOptions = {}): Promise<FieldWorld> {
  const own = !opts.toxiproxy;
  const tp = opts.toxiproxy ?? (await startToxiproxy('local'));
  if ('missing' in tp) throw new Error(`the field world needs Toxiproxy: ${tp.missing}`);
  // Proxy names are unique per world, so many worlds can share one Toxiproxy.
  const tag = `fw${++worlds}`;
  const proxies: Proxy[] = [];
  const dropProxies = async () => {
    if (own) return tp.close();
    for (const p of proxies) await p.remove().catch(() => undefined);
  };
  const latency = opts.latencyMs ?? 100;
  const jitter = opts.jitterMs ?? 30;
  let reference: RunningReference | undefined;
  try {
    // The tunnel: the public URL the target's sender may reach, forwarding to the receiver's fixed port.
    const receiverPort = await freePort();
    const tunnel = await latencyProxy(tp, `${tag}-tunnel`, `127.0.0.1:${receiverPort}`, latency, jitter);
    proxies.push(tunnel);
    const publicUrl = `http://${tunnel.listen.replace(/^\[?::\]?:/, '127.0.0.1:')}`;
    const target = fieldTargetProfile(opts);
    reference = await startReference({
      profile: { ...target, reference: { ...target.reference!, webhookReach: [publicUrl] } },
      faults: opts.faults ?? [],
      ephemeralPorts: true,
    });
    const proxied = async (name: string, url: string | undefined) => {
      if (!url) return undefined;
      const proxy = await latencyProxy(tp, `${tag}-${name}`, hostPort(url), latency, jitter);
      proxies.push(proxy);
      return `${new URL(url).protocol}//${proxy.listen.replace(/^\[?::\]?:/, '127.0.0.1:')}${new URL(url).pathname}`;
    };
    const running = reference.profile;
    const gateSandbox = (await proxied('gate-sandbox', running.gate.baseUrls.sandbox))!;
    const gateProduction = await proxied('gate-production', running.gate.baseUrls.production);
    const poolsSandbox = running.pools ? (await proxied('pools-sandbox', running.pools.baseUrls.sandbox))! : undefined;
    const poolsProduction = running.pools ? await proxied('pools-production', running.pools.baseUrls.production) : undefined;
    const { reference: _hidden, ...harnessView } = running;
    const profile: Profile = {
      ...harnessView,
      gate: { ...running.gate, baseUrls: { sandbox: gateSandbox, ...(gateProduction ? { production: gateProduction } : {}) } },
      ...(running.pools && poolsSandbox
        ? { pools: { ...running.pools, baseUrls: { sandbox: poolsSandbox, ...(poolsProduction ? { production: poolsProduction } : {}) } } }
        : {}),
      webhooks: { listenHost: '127.0.0.1', listenPort: receiverPort, publicUrl },
    };
    const ref = reference;
    return {
      profile,
      reference: ref,
      toxiproxy: tp,
      async close() {
        await ref.close();
        await dropProxies();
      },
    };
  } catch (e) {
    await reference?.close().catch(() => undefined);
    await dropProxies();
    throw e;
  }
}
