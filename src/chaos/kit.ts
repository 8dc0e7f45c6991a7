// Toxiproxy and the receiver in the places chaos needs them. On the webhook
// path: a proxy per partner channel in front of the receiver (the URL the
// partner's webhook_url points at) when the target reaches this machine; the
// receiver staging the same faults itself when the target reaches rampart only
// through webhooks.publicUrl (a tunnel no proxy of ours can stand in). On the
// API path: a fresh proxy per check whose upstream is the target's host, local
// or remote (TLS passes through untouched), so toxics never leak between checks.
import type { Proxy } from 'toxiproxy-node-client';
import type { ApiClient } from '../client/types.js';
import type { ChaosKit, GateActor, NeedEnv, PartnerHooks, PoolsActor, RunResources, Service } from '../needs/define.js';
import type { ReceiverFault } from '../webhooks/types.js';
import type { ToxiproxyHandle } from './toxiproxy.js';

let seq = 0;
const hostPort = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
};

/**
 * Each webhook fault as the Toxiproxy toxic that stages it between the sender and the receiver: a reset or a
 * silent connection on the way in (the receiver never sees the attempt), latency on the answer's way back.
 */
const TOXIC_OF: Record<ReceiverFault['kind'], (f: ReceiverFault) => { type: string; stream: 'upstream' | 'downstream'; attributes: Record<string, number> }> = {
  reset: () => ({ type: 'reset_peer', stream: 'upstream', attributes: { timeout: 0 } }),
  timeout: (f) => ({ type: 'timeout', stream: 'upstream', attributes: { timeout: (f as { afterMs: number }).afterMs } }),
  latency: (f) => ({ type: 'latency', stream: 'downstream', attributes: { latency: (f as { ms: number }).ms, jitter: 0 } }),
};

async function toxicsOf(proxyPath: string): Promise<{ name: string }[]> {
  const res = await fetch(`${proxyPath}/toxics`);
  if (!res.ok) throw new Error(`Toxiproxy answered HTTP ${res.status} listing toxics at ${proxyPath}`);
  return (await res.json()) as { name: string }[];
}

/** Wire a run for chaos: webhook faults where deliveries really arrive, and a kit per check. */
export function installChaos(run: RunResources, tp: ToxiproxyHandle): void {
  // Through a public URL the target cannot reach a loopback proxy: the receiver stages the faults.
  const byReceiver = !!run.profile.webhooks.publicUrl;
  const webhookProxies = new Map<string, Promise<Proxy>>();
  const receiverUpstream = hostPort(run.receiver.url);

  const webhookProxy = (channel: string): Promise<Proxy> => {
    let p = webhookProxies.get(channel);
    if (!p) {
      p = tp.api.createProxy({ name: `webhooks-${channel.replace(/[^A-Za-z0-9_-]/g, '_')}-${++seq}`, listen: '127.0.0.1:0', upstream: receiverUpstream });
      webhookProxies.set(channel, p);
      p.catch(() => webhookProxies.delete(channel));
    }
    return p;
  };

  if (!byReceiver)
    run.webhookUrlFor = async (channel) => {
      const proxy = await webhookProxy(channel);
      const direct = new URL(run.receiver.urlFor(channel));
      const listen = proxy.listen.replace(/^\[?::\]?:/, '127.0.0.1:');
      return `${direct.protocol}//${listen}${direct.pathname}`;
    };

  run.chaos = {
    kitFor(env: NeedEnv) {
      const touched = new Set<Proxy>();
      const faulted = new Set<string>();
      const own: Proxy[] = [];
      const kit: ChaosKit = {
        toxiproxy: tp.api,
        webhookFaultsBy: byReceiver ? 'receiver' : 'toxiproxy',
        async webhookFault(hooks: PartnerHooks, fault: ReceiverFault) {
          if (byReceiver) {
            run.receiver.setFault(hooks.channel, fault);
            faulted.add(hooks.channel);
            return { remove: async () => run.receiver.setFault(hooks.channel, undefined) };
          }
          const proxy = await webhookProxy(hooks.channel);
          touched.add(proxy);
          const spec = TOXIC_OF[fault.kind](fault);
          const toxic = await proxy.addToxic({ name: `${spec.type}-${spec.stream}-${++seq}`, toxicity: 1, ...spec } as never);
          let removed = false;
          return {
            async remove() {
              if (removed) return;
              removed = true;
              await toxic.remove();
            },
          };
        },
        async throughProxy(actor: GateActor | PoolsActor, service: Service) {
          const baseUrl = actor.client.baseUrl;
          const proxy = await tp.api.createProxy({ name: `api-${service}-${++seq}`, listen: '127.0.0.1:0', upstream: hostPort(baseUrl) });
          own.push(proxy);
          const u = new URL(baseUrl);
          const proxied = `${u.protocol}//${proxy.listen}${u.pathname}`;
          const client: ApiClient = env.client(service, proxied, `${actor.partner.name} via toxiproxy`, actor.partner.secretKey, actor.partner.publishableKey);
          return { client, proxy };
        },
      };
      return {
        kit,
        async cleanup() {
          for (const channel of faulted) run.receiver.setFault(channel, undefined);
          // Toxics on shared webhook proxies go; per-check API proxies are deleted.
          // The client's Proxy carries no toxic list: read it from the control API, so nothing a check added outlives it.
          for (const p of touched) {
            const path = `${tp.url}/proxies/${encodeURIComponent(p.name)}`;
            const toxics = await toxicsOf(path);
            for (const t of toxics) {
              const res = await fetch(`${path}/toxics/${encodeURIComponent(t.name)}`, { method: 'DELETE' });
              if (!res.ok && res.status !== 404) throw new Error(`Toxiproxy refused to remove toxic ${t.name} from ${p.name}: HTTP ${res.status}`);
            }
            const left = await toxicsOf(path);
            if (left.length) throw new Error(`toxics ${left.map((t) => t.name).join(', ')} are still on ${p.name} after the check`);
            const fresh = await tp.api.get(p.name);
            if (!fresh.enabled) await fresh.update({ enabled: true, listen: fresh.listen, upstream: fresh.upstream });
          }
          for (const p of own) await p.remove().catch(() => undefined);
        },
      };
    },
  };
}
