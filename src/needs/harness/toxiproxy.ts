// Toxiproxy between the target and the harness (chaos runs): webhook proxies
// per partner channel and API proxies per check; toxics a check adds are
// removed when it ends.
import { defineNeed, type ChaosKit } from '../define.js';
import { CheckSkipped } from '../../runner/expect.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    toxiproxy: ChaosKit;
  }
}

export default defineNeed({
  name: 'toxiproxy',
  description: 'Toxiproxy between the target and rampart (chaos runs)',
  missing: () => null,
  setup: (env) => {
    if (!env.run.chaos) throw new CheckSkipped(env.run.chaosMissing ?? 'Toxiproxy is available only in chaos runs (rampart chaos or certify)');
    const { kit, cleanup } = env.run.chaos.kitFor(env);
    env.onRelease(cleanup);
    return kit;
  },
});
