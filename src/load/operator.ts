// `rampart load --emit k6-operator DIR`: the same run as `rampart load
// --segments N`, packaged for Kubernetes. Per scenario, DIR/<scenario>/ gets
// the `k6 archive` bundle (the script, its imports and the run config, whose
// keys are ${VAR} references), a ConfigMap carrying it, a Secret template
// whose values come from the environment (never a key in a file), and the
// TestRun (k6.io/v1alpha1) with parallelism N. k6-operator gives runner pod i
// the flags --execution-segment=(i-1)/N:i/N --execution-segment-sequence=
// 0,1/N,…,1 — the ones `--segments N` uses — and the scenarios take their
// share of the keys from that segment, so the split is the same.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Profile } from '../profile/schema.js';
import { EXIT, RunError } from '../exitCodes.js';
import { keyShare, segmentsOf } from '../../scenarios/lib/keyShare.js';
import type { ScenarioName } from '../../scenarios/lib/requirements.js';
import { configFor, loadKeys, segmentProblem } from './config.js';
import type { Gates } from './gates.js';
import { PACKAGE_ROOT } from '../packageRoot.js';
import { pinnedK6Version } from './k6.js';
import { scriptOf } from './scenarioRun.js';

/** A key the bundle refers to: the environment variable that carries it, and the partner it belongs to. */
export interface KeyRef {
  env: string;
  partner: string;
  role: 'gate load key' | 'gate traffic key' | 'pools key';
}

export interface EmittedScenario {
  scenario: ScenarioName;
  dir: string;
  files: string[];
  keys: KeyRef[];
}

/** Largest ConfigMap Kubernetes stores (1 MiB, base64 included). */
const CONFIGMAP_LIMIT = 1024 * 1024;

// Which key lists a scenario reads: the others are left empty so its Secret holds only what it needs.
const USES: Record<ScenarioName, { reserved: boolean; traffic: boolean; pools: boolean }> = {
  'rate-limits': { reserved: true, traffic: false, pools: false },
  smoke: { reserved: false, traffic: true, pools: true },
  soak: { reserved: false, traffic: true, pools: true },
  'quote-ttl': { reserved: false, traffic: false, pools: true },
  'transact-race': { reserved: false, traffic: false, pools: true },
};

/** The run config with every key replaced by a ${VAR} reference, and the references. */
function withKeyRefs(profile: Profile, name: ScenarioName, config: Record<string, unknown>): { config: Record<string, unknown>; keys: KeyRef[] } {
  const k = loadKeys(profile);
  const use = USES[name];
  const keys: KeyRef[] = [];
  const refs = (partners: { name: string }[], prefix: string, role: KeyRef['role']) =>
    partners.map((p, i) => {
      const env = `${prefix}_${i + 1}`;
      keys.push({ env, partner: p.name, role });
      return `\${${env}}`;
    });
  const gate = config.gate as Record<string, unknown>;
  const pools = config.pools as Record<string, unknown> | undefined;
  return {
    config: {
      ...config,
      gate: {
        ...gate,
        keys: use.reserved ? refs(k.reserved, 'RAMPART_GATE_LOAD_KEY', 'gate load key') : [],
        // Keys travel as Secret references only: the bootstrap's route probe (a publishable key) is left out of bundles.
        embed: undefined,
        trafficKeys: use.traffic ? refs(k.traffic, 'RAMPART_GATE_TRAFFIC_KEY', 'gate traffic key') : [],
      },
      ...(pools ? { pools: { ...pools, keys: use.pools ? refs(k.funded, 'RAMPART_POOLS_KEY', 'pools key') : [] } } : {}),
    },
    keys,
  };
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

/** The TestRun manifest (fields: fixtures/k6-operator/testrun.schema.json). */
export function testRunManifest(name: ScenarioName, parallelism: number, k6Out: string[]): Record<string, unknown> {
  const args = [`--tag testid=rampart-${name}`, ...k6Out.map((o) => `--out ${o}`)];
  return {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: { name: `rampart-${name}` },
    spec: {
      parallelism,
      script: { configMap: { name: `rampart-${name}`, file: 'archive.tar' } },
      arguments: args.join(' '),
      runner: {
        image: `grafana/k6:${pinnedK6Version().replace(/^v/, '')}`,
        env: [{ name: 'K6_NO_USAGE_REPORT', value: 'true' }],
        envFrom: [{ secretRef: { name: `rampart-${name}-keys` } }],
      },
    },
  };
}

function readme(name: ScenarioName, n: number, keys: KeyRef[], configMapBytes: number): string {
  const big = configMapBytes > CONFIGMAP_LIMIT;
  return `# rampart ${name} on k6-operator (parallelism ${n})

Written by \`rampart load --emit k6-operator\`. Nothing here holds a key: the run config inside
\`archive.tar\` refers to the keys as \`\${VAR}\`, and the runner pods read them from the Secret
\`rampart-${name}-keys\`.

1. Export each key below in your shell (from your secret store), then create the Secret:

       sh create-secret.sh          # or: envsubst < secret.json | kubectl apply -f -

${keys.map((k) => `   - \`${k.env}\`: the secret key of partner \`${k.partner}\` (${k.role})`).join('\n') || '   - (this scenario reads no key)'}

2. Store the bundle and start the run:

${big ? `       kubectl create configmap rampart-${name} --from-file=archive.tar   # the bundle is over 1 MiB: too big for configmap.json\n` : '       kubectl apply -f configmap.json\n'}       kubectl apply -f testrun.json

3. Each runner pod prints its summary as one line \`RAMPART_SUMMARY {…}\` and its records as k6
   console lines. When the TestRun has finished, save the pods' logs and merge them into one rampart
   verdict and report (\`reports/latest/\`): the same merge \`rampart load --segments ${n}\` makes of the
   same split on one machine.

       kubectl logs -l k6_cr=rampart-${name},runner=true --tail=-1${n > 5 ? ` --max-log-requests ${n}` : ''} > ${name}.log
       npx rampart load --merge ${name}.log --segments ${n} --scenario ${name}   # add --profile FILE to name the target in the report

   Thresholds are judged per pod by k6, and again on the merged counts by rampart. A pod whose
   summary line is missing fails every requirement of the scenario, as a crashed segment does.

k6-operator gives runner pod i of ${n} \`--execution-segment=(i-1)/${n}:i/${n}\` and
\`--execution-segment-sequence\` over the same points; each pod sends with the keys of its segment
only (segments.json lists them), so no two pods share a key's rate windows.
`;
}

export function emitK6Operator(opts: {
  profile: Profile;
  scenarios: ScenarioName[];
  depth: 'quick' | 'full';
  cases?: string[];
  gates: Gates;
  segments: number;
  dir: string;
  k6: string;
  k6Out?: string[];
  seed: number;
  selectedCases: (name: ScenarioName) => string[];
}): EmittedScenario[] {
  const n = opts.segments;
  const out: EmittedScenario[] = [];
  for (const name of opts.scenarios) {
    const problem = segmentProblem(opts.profile, name, n);
    if (problem) throw new RunError(problem, EXIT.usage);
    const built = configFor(opts.profile, name, opts.selectedCases(name), opts.depth, opts.gates, opts.seed);
    if (!built.config) throw new RunError(`cannot emit ${name} for k6-operator: ${built.missing}`, EXIT.usage);
    const { config, keys } = withKeyRefs(opts.profile, name, built.config);
    const dir = resolve(opts.dir, name);
    mkdirSync(dir, { recursive: true });
    const files: string[] = [];
    const write = (file: string, text: string | Buffer, mode = 0o644) => {
      writeFileSync(join(dir, file), text, { mode });
      files.push(join(dir, file));
    };
    write('config.json', json(config));
    // The archive records RAMPART_CONFIG (a path) and bundles the file it names; environment variables stay out.
    const archived = spawnSync(
      opts.k6,
      ['archive', '--quiet', '--no-color', '-e', `RAMPART_CONFIG=${join(dir, 'config.json')}`, '-O', join(dir, 'archive.tar'), scriptOf(name)],
      {
        cwd: PACKAGE_ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', K6_NO_USAGE_REPORT: 'true' },
        timeout: 120_000,
      },
    );
    if (archived.status !== 0)
      throw new RunError(
        `k6 archive of ${name} failed (exit ${archived.status}): ${(archived.stderr || archived.stdout).trim().split('\n').slice(-2).join(' | ')}`,
        EXIT.internal,
      );
    files.push(join(dir, 'archive.tar'));
    const tar = readFileSync(join(dir, 'archive.tar'));
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `rampart-${name}` }, binaryData: { 'archive.tar': tar.toString('base64') } };
    const configMapText = json(configMap);
    if (configMapText.length <= CONFIGMAP_LIMIT) write('configmap.json', configMapText);
    write(
      'secret.json',
      json({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `rampart-${name}-keys` },
        type: 'Opaque',
        stringData: Object.fromEntries(keys.map((k) => [k.env, `\${${k.env}}`])),
      }),
    );
    write(
      'create-secret.sh',
      `#!/bin/sh\n# Creates the Secret rampart-${name}-keys from the environment (see README.md for which key is which).\nset -eu\nkubectl create secret generic rampart-${name}-keys \\\n${keys.map((k) => `  --from-literal=${k.env}="\${${k.env}:?export ${k.env}: the secret key of partner ${k.partner}}" \\\n`).join('')}  --dry-run=client -o yaml | kubectl apply -f -\n`,
      0o755,
    );
    write('testrun.json', json(testRunManifest(name, n, opts.k6Out ?? [])));
    const { segments, sequence } = segmentsOf(n);
    const partners = loadKeys(opts.profile);
    const plan = {
      parallelism: n,
      executionSegmentSequence: sequence,
      segments: segments.map((segment, i) => {
        const [from, to] = [i / n, (i + 1) / n];
        return {
          pod: i + 1,
          executionSegment: segment,
          ...(USES[name].traffic ? { gateTrafficKeys: keyShare(partners.traffic, from, to).map((p) => p.name) } : {}),
          ...(USES[name].pools
            ? { poolsKeys: (keyShare(partners.funded, from, to).length ? keyShare(partners.funded, from, to) : partners.funded).map((p) => p.name) }
            : {}),
        };
      }),
      ...(name === 'rate-limits' ? { note: 'each case runs as one VU: k6 gives it, and with it its key, to exactly one pod' } : {}),
    };
    write('segments.json', json(plan));
    write('README.md', readme(name, n, keys, configMapText.length));
    out.push({ scenario: name, dir, files, keys });
  }
  return out;
}
