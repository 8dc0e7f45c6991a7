// `rampart load --emit k6-operator`: the TestRun validates against the
// TestRun fields of k6-operator's CRD (fixtures/k6-operator/testrun.schema.json,
// source named inside), no emitted file holds a key, and `k6 run` of the
// emitted archive — split as the operator splits it, keys from the
// environment as the Secret gives them — passes against the embedded target.
// Skipped visibly without k6.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunningReference } from '../src/reference/server.js';
import { loadGates } from '../src/load/gates.js';
import { findK6, runK6 } from '../src/load/k6.js';
import { emitK6Operator, testRunManifest, type EmittedScenario } from '../src/load/operator.js';
import { selectedCases } from '../src/load/run.js';
import { mergeSummaries, type Summary } from '../src/load/summary.js';
import { segmentsOf } from '../scenarios/lib/keyShare.ts';
import { startEmbedded } from './support/embedded.js';

const k6 = findK6();
const noK6 = 'missing' in k6 ? k6.missing : undefined;
const dir = mkdtempSync(join(tmpdir(), 'rampart-load-operator-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const testRunSchema = z.fromJSONSchema(JSON.parse(readFileSync('fixtures/k6-operator/testrun.schema.json', 'utf8')));

describe('the TestRun schema (k6-operator CRD fields)', () => {
  it('accepts the manifest rampart writes and refuses what the CRD refuses', () => {
    const good = testRunManifest('smoke', 2, ['experimental-prometheus-rw']);
    expect(testRunSchema.safeParse(good).success).toBe(true);
    const spec = good.spec as Record<string, unknown>;
    const { parallelism: _p, ...noParallelism } = spec;
    const { script: _s, ...noScript } = spec;
    for (const bad of [
      { ...good, apiVersion: 'k6.io/v1' },
      { ...good, kind: 'Job' },
      { ...good, spec: noParallelism },
      { ...good, spec: noScript },
      { ...good, spec: { ...spec, parallelism: 0 } },
      { ...good, spec: { ...spec, cleanup: 'always' } },
    ])
      expect(testRunSchema.safeParse(bad).success).toBe(false);
  });
});

describe.skipIf(!!noK6)(`k6-operator bundle${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  let ref: RunningReference;
  let emitted: EmittedScenario;
  const gates = { ...loadGates(), smokeDurationSeconds: 5 };
  beforeAll(async () => {
    ref = await startEmbedded({ tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: 0.1 } }) });
    [emitted] = emitK6Operator({
      profile: ref.profile,
      scenarios: ['smoke'],
      depth: 'quick',
      gates,
      segments: 2,
      dir,
      k6: (k6 as { path: string }).path,
      seed: 3,
      selectedCases: (n) => selectedCases(n, 'quick'),
    }) as [EmittedScenario];
  });
  afterAll(async () => ref?.close());

  it('writes the archive, ConfigMap, Secret template and a TestRun of parallelism 2 that validates', () => {
    const files = readdirSync(emitted.dir).sort();
    expect(files).toEqual(['README.md', 'archive.tar', 'config.json', 'configmap.json', 'create-secret.sh', 'secret.json', 'segments.json', 'testrun.json']);
    const testRun = JSON.parse(readFileSync(join(emitted.dir, 'testrun.json'), 'utf8'));
    expect(testRunSchema.safeParse(testRun).success).toBe(true);
    expect(testRun.spec.parallelism).toBe(2);
    expect(testRun.spec.script.configMap).toEqual({ name: 'rampart-smoke', file: 'archive.tar' });
    expect(testRun.spec.runner.envFrom).toEqual([{ secretRef: { name: 'rampart-smoke-keys' } }]);
    const configMap = JSON.parse(readFileSync(join(emitted.dir, 'configmap.json'), 'utf8'));
    expect(Buffer.from(configMap.binaryData['archive.tar'], 'base64').equals(readFileSync(join(emitted.dir, 'archive.tar')))).toBe(true);
    // The Secret holds only ${VAR} placeholders, one per key the scenario reads.
    const secret = JSON.parse(readFileSync(join(emitted.dir, 'secret.json'), 'utf8'));
    expect(secret.stringData).toEqual(Object.fromEntries(emitted.keys.map((k) => [k.env, `\${${k.env}}`])));
    expect(emitted.keys.length).toBeGreaterThan(0);
    // Each pod's keys are its segment's share: disjoint, all of them together.
    const plan = JSON.parse(readFileSync(join(emitted.dir, 'segments.json'), 'utf8'));
    expect(plan.segments.map((s: { executionSegment: string }) => s.executionSegment)).toEqual(segmentsOf(2).segments);
    const shares = plan.segments.map((s: { gateTrafficKeys: string[] }) => s.gateTrafficKeys);
    expect(shares[0].filter((k: string) => shares[1].includes(k))).toEqual([]);
    expect([...shares[0], ...shares[1]].length).toBe(emitted.keys.filter((k) => k.role === 'gate traffic key').length);
  });

  it('no emitted file, the archive included, holds a key', () => {
    const secrets = [
      ...ref.profile.gate.partners.flatMap((p) => [p.secretKey, p.liveSecretKey]),
      ...(ref.profile.pools?.partners ?? []).map((p) => p.secretKey),
    ].filter((k): k is string => !!k);
    for (const f of emitted.files) {
      const text = readFileSync(f).toString('latin1');
      for (const s of secrets) expect(text.includes(s), `${f} holds a key`).toBe(false);
    }
  });

  it('k6 run of the archive, split as the operator splits it, keys from the environment: passes', { timeout: 120_000 }, async () => {
    // What the Secret gives each runner pod: the variable of each key, set to that partner's key.
    const byName = new Map([...ref.profile.gate.partners, ...(ref.profile.pools?.partners ?? [])].map((p) => [p.name, p.secretKey]));
    const env = Object.fromEntries(emitted.keys.map((k) => [k.env, byName.get(k.partner)!]));
    const { segments, sequence } = segmentsOf(2);
    for (const i of [1, 2]) mkdirSync(join(dir, `pod-${i}`));
    const runs = await Promise.all(
      segments.map((segment, i) =>
        runK6({
          k6: (k6 as { path: string }).path,
          script: join(emitted.dir, 'archive.tar'),
          env: { ...env, RAMPART_OUT: join(dir, `pod-${i + 1}`) },
          args: [`--execution-segment=${segment}`, `--execution-segment-sequence=${sequence}`, '--tag', `instance_id=${i + 1}`],
          timeoutMs: 90_000,
        }),
      ),
    );
    expect(
      runs.map((r) => r.exitCode),
      runs.map((r) => r.stderrTail).join('\n'),
    ).toEqual([0, 0]);
    const summaries = [1, 2].map((i) => JSON.parse(readFileSync(join(dir, `pod-${i}`, 'summary.json'), 'utf8')) as Summary);
    const merged = mergeSummaries(summaries);
    expect(merged.metrics!.http_reqs!.values!.count).toBeGreaterThan(0);
    expect(merged.metrics!.rampart_unexpected!.values!.passes).toBe(0);
    for (const [name, m] of Object.entries(merged.metrics!))
      for (const [expr, t] of Object.entries(m.thresholds ?? {})) expect(t.ok, `${name} ${expr}`).toBe(true);
  });
});
