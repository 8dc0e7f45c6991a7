// "A response lost after the request reached the target": the check's own
// Toxiproxy proxy in front of the API gets a downstream `timeout` toxic, which
// lets the request through, swallows the answer and closes the connection.
// The caller then retries through the healed proxy with the same key.
import type { ApiClient, Exchange } from '../src/client/types.js';
import { TransportError } from '../src/client/types.js';
import type { ChaosKit, GateActor, PoolsActor } from '../src/needs/define.js';
import type { CheckTools } from '../src/runner/check.js';

/** How long the toxic holds the swallowed answer before closing the connection. */
const DROP_MS = 2_000;

export interface LostResponse {
  /** A client through the same proxy, toxic removed: the retry goes the same way the lost request went. */
  client: ApiClient;
  /** The transport error the first request ended with. */
  error: TransportError;
}

export async function sendAndLoseResponse(
  t: CheckTools,
  kit: ChaosKit,
  actor: GateActor | PoolsActor,
  service: 'gate' | 'pools',
  send: (client: ApiClient) => Promise<Exchange>,
): Promise<LostResponse> {
  const { client, proxy } = await kit.throughProxy(actor, service);
  const toxic = await proxy.addToxic({ name: 'lose-response', type: 'timeout', stream: 'downstream', toxicity: 1, attributes: { timeout: DROP_MS } });
  let error: TransportError | undefined;
  let answered: Exchange | undefined;
  try {
    answered = await send(client);
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    error = e;
  } finally {
    await toxic.remove();
  }
  // The behaviour judged (a retry after a lost answer) was not reached: never a pass.
  if (!error) t.unverified(`the answer was not lost (${answered?.status}): the toxic did not take effect, so the retry case could not be staged`);
  t.observe('chaos.lostResponse', { kind: error.kind, message: error.message.slice(0, 160) }, 'how the client saw the swallowed answer');
  return { client, error };
}
