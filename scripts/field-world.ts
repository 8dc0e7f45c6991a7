// The field world, by hand: start the embedded target as a remote sandbox
// (latency each way, its own clock, webhooks only through a public URL,
// optionally one key, short lifetimes, a history, another partner order) and
// write the profile the harness is given; it runs until Ctrl-C.
//   npx tsx scripts/field-world.ts --out .tmp/field.json [--clock 2] [--latency 100 --jitter 30] [--one-key]
//     [--lifetimes 30,60] [--history 200,60,120,80] [--order reverse|seed:N] [--windows 0.1] [--retry 0.01] [--fault NAME]
//   then: node bin/rampart.js certify --profile .tmp/field.json
import { writeFileSync } from 'node:fs';
import { startFieldWorld, type FieldWorldOptions } from '../test/support/fieldWorld.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args.splice(i, 1), true) : false;
};
const num = (s: string | undefined) => (s === undefined ? undefined : Number(s));
const faults: string[] = [];
for (let f = opt('--fault'); f; f = opt('--fault')) faults.push(f);
const out = opt('--out') ?? '.tmp/field.json';
const lifetimes = opt('--lifetimes')?.split(',').map(Number);
const history = opt('--history')?.split(',').map(Number);
const order = opt('--order');
const opts: FieldWorldOptions = {
  faults,
  clockOffsetSeconds: num(opt('--clock')),
  latencyMs: num(opt('--latency')),
  jitterMs: num(opt('--jitter')),
  oneKey: flag('--one-key'),
  ...(lifetimes ? { lifetimes: { signedQuoteSeconds: lifetimes[0]!, sessionSeconds: lifetimes[1]! } } : {}),
  ...(history ? { history: { sessions: history[0]!, customers: history[1]!, trades: history[2]!, deliveries: history[3]! } } : {}),
  ...(order ? { order: order === 'reverse' ? 'reverse' : { seed: Number(order.replace(/^seed:/, '')) } } : {}),
  rateWindowScale: num(opt('--windows')),
  retryScale: num(opt('--retry')),
};
if (args.length) throw new Error(`unknown arguments: ${args.join(' ')}`);
const world = await startFieldWorld(opts);
writeFileSync(out, JSON.stringify(world.profile, null, 2));
console.log(`field world up; profile written to ${out} (webhooks through ${world.profile.webhooks.publicUrl}); Ctrl-C to stop`);
const stop = async () => {
  await world.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
