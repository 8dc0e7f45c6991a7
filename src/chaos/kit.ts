// Toxiproxy in the two places chaos needs it: between the target's webhook
// sender and rampart's receiver (one proxy per partner channel, the URL the
// partner's webhook_url points at), and between a check's client and the
// target API (a fresh proxy per check, so toxics never leak into other checks).
import type { Proxy } from 'toxiproxy-node-client';
import type { ApiClient } from '../client/types.js';
import type { ChaosKit, GateActor, NeedEnv, PartnerHooks, PoolsActor, RunResources, Service } from '../needs/define.js';
import type { ToxiproxyHandle } from './toxiproxy.js';

let seq = 0;
const hostPort = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
};

async function toxicsOf(proxyPath: string): Promise<{ name: string }[]> {
  const res = await fetch(`${proxyPath}/toxics`);
  if (!res.ok) throw new Error(`Toxiproxy answered HTTP ${res.status} listing toxics at ${proxyPath}`);
  return (await res.json()) as { name: string }[];
}

/** Wire a run for chaos: webhook URLs through proxies, and a kit per check. */
export function installChaos(run: RunResources, tp: ToxiproxyHandle): void {
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

  run.webhookUrlFor = async (channel) => {
    const proxy = await webhookProxy(channel);
    const direct = new URL(run.receiver.urlFor(channel));
    const listen = proxy.listen.replace(/^\[?::\]?:/, '127.0.0.1:');
    return `${direct.protocol}//${listen}${direct.pathname}`;
  };

  run.chaos = {
    kitFor(env: NeedEnv) {
      const touched = new Set<Proxy>();
      const own: Proxy[] = [];
      const kit: ChaosKit = {
        toxiproxy: tp.api,
        async webhookProxy(hooks: PartnerHooks) {
          const p = await webhookProxy(hooks.channel);
          touched.add(p);
          return p;
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
