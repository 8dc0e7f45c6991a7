// `rampart load --emit k6-operator DIR`: write the k6-operator bundle for this run instead of running it.
import { registerProfileSecrets } from '../run.js';
import { EXIT, RunError } from '../../exitCodes.js';
import { assertSafeForTraffic } from '../target.js';
import { loadProfile } from '../../profile/load.js';
import { loadGates } from '../../load/gates.js';
import { findK6 } from '../../load/k6.js';
import { emitK6Operator } from '../../load/operator.js';
import { selectedCases } from '../../load/run.js';
import { parseSeed, parseSegments, scenarioNames } from '../../load/options.js';

export function emitCommand(opts: {
  emit: string[];
  profile?: string;
  depth: 'quick' | 'full';
  scenario?: string[];
  case?: string[];
  gates?: string;
  segments?: string;
  k6Out?: string[];
  seed?: string;
  allowLive?: boolean;
}): number {
  if (opts.emit.length !== 2 || opts.emit[0] !== 'k6-operator') throw new RunError('--emit takes a format and a directory: --emit k6-operator DIR', EXIT.usage);
  if (!opts.profile)
    throw new RunError("--emit needs --profile: the bundle points at the profile's base URLs (the embedded target stops when rampart exits)", EXIT.usage);
  const segments = parseSegments(opts.segments) ?? 1;
  const seed = parseSeed(opts.seed) ?? Math.floor(Math.random() * 1_000_000);
  const names = scenarioNames(opts.scenario);
  const profile = loadProfile(opts.profile);
  registerProfileSecrets(profile);
  assertSafeForTraffic(profile, !!opts.allowLive, 'load');
  const k6 = findK6();
  if ('missing' in k6) throw new RunError(`cannot build the k6 archive: ${k6.missing}`, EXIT.usage);
  const emitted = emitK6Operator({
    profile,
    scenarios: names,
    depth: opts.depth,
    gates: loadGates(opts.gates),
    segments,
    dir: opts.emit[1]!,
    k6: k6.path,
    k6Out: opts.k6Out,
    seed,
    selectedCases: (name) => selectedCases(name, opts.depth, opts.case),
  });
  for (const e of emitted)
    process.stdout.write(`${e.scenario}: ${e.dir} (parallelism ${segments}; ${e.keys.length} key(s) from the environment — see README.md)\n`);
  return EXIT.ok;
}
