// Toxics on a partner's webhook proxy (between the target's sender and the
// receiver). Checks hold the partner exclusively, so a toxic touches only
// their own deliveries; the chaos kit removes leftovers when the check ends.
import type { Toxic } from 'toxiproxy-node-client';
import type { ChaosKit, PartnerHooks } from '../../src/needs/define.js';

let seq = 0;

/** Add a toxic to the partner's webhook proxy; returns a remover. */
export async function webhookToxic(
  kit: ChaosKit,
  actor: { hooks: PartnerHooks },
  type: 'latency' | 'timeout' | 'reset_peer' | 'bandwidth',
  stream: 'upstream' | 'downstream',
  attributes: Record<string, number>,
): Promise<{ remove(): Promise<void> }> {
  const proxy = await kit.webhookProxy(actor.hooks);
  const toxic: Toxic<unknown> = await proxy.addToxic({ name: `${type}-${stream}-${++seq}`, type, stream, toxicity: 1, attributes } as never);
  let removed = false;
  return {
    async remove() {
      if (removed) return;
      removed = true;
      await toxic.remove();
    },
  };
}
