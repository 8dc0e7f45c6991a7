// "A response lost after the request reached the target": the check's own
// Toxiproxy proxy in front of the API gets a downstream `timeout` toxic, which
// lets the request through, swallows the answer and closes the connection.
// The caller then retries through the healed proxy with the same key. A case
// the toxic could not stage (an answer got through, or the request never took
// effect) ends the check unverified: the retry rule was not reached.
import type { ApiClient, Exchange } from '../src/client/types.js';
import { TransportError } from '../src/client/types.js';
import type { ChaosKit, GateActor, PoolsActor } from '../src/needs/define.js';
import type { CheckTools } from '../src/runner/check.js';

/** How long the toxic holds the swallowed answer before closing the connection. */
const DROP_MS = 2_000;
/** The lost request's own timeout: well past DROP_MS, so the toxic (not the client) ends it. */
export const LOST_REQUEST_TIMEOUT_MS = 15_000;

export interface LostResponse {
  /** A client through the same proxy, toxic removed: the retry goes the same way the lost request went. */
  client: ApiClient;
  /** The transport error the first request ended with. */
  error: TransportError;
}

export interface LoseOptions {
  /**
   * A documented read showing whether the lost request took effect (the object
   * exists, the quote is consumed). false: the request never reached the target,
   * so the case was not staged. Without one, the toxic's design (it forwards the
   * request and drops only the answer) is what stages it.
   */
  reached?: () => Promise<boolean>;
}

export async function sendAndLoseResponse(
  t: CheckTools,
  kit: ChaosKit,
  actor: GateActor | PoolsActor,
  service: 'gate' | 'pools',
  send: (client: ApiClient) => Promise<Exchange>,
  opts: LoseOptions = {},
): Promise<LostResponse> {
  const { client, proxy } = await kit.throughProxy(actor, service);
  const toxic = await proxy.addToxic({ name: 'lose-response', type: 'timeout', stream: 'downstream', toxicity: 1, attributes: { timeout: DROP_MS } });
  let error: TransportError | undefined;
  let answered: Exchange | undefined;
  try {
    // The wait for the swallowed answer is of rampart's making, not the target's.
    answered = await t.harness('an answer swallowed on purpose by the toxic', send(client));
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    error = e;
  } finally {
    await toxic.remove();
  }
  // The behaviour judged (a retry after a lost answer) was not reached: never a pass.
  if (!error) t.unverified(`the answer was not lost (${answered?.status}): the toxic did not take effect, so the retry case could not be staged`);
  t.observe('chaos.lostResponse', { kind: error.kind, message: error.message.slice(0, 160) }, 'how the client saw the swallowed answer');
  if (opts.reached && !(await opts.reached()))
    t.unverified(
      'the request whose answer was lost left no trace on the target (it never arrived, or was undone when the connection closed), so a retry after a lost response could not be staged',
    );
  return { client, error };
}
