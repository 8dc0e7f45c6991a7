// `rampart load --merge LOGS`: a k6-operator run read back from its runner
// pods' kubectl logs gives the verdict and totals `--segments N` gives on one
// machine. Reading the logs (kubectl's prefixes and timestamps, k6's logfmt and
// JSON logs, a torn or missing summary) is checked on text; then against the
// embedded target: the summaries of a local 2-segment smoke run, printed as
// two pods print them, merge into the same checks, merged summary and request
// total; and the emitted quote-ttl archive run as two pods (no RAMPART_OUT,
// so each prints its summary line) merges through the CLI into the verdict of
// the local `--segments 2` run. Skipped visibly without k6.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from '../src/reference/server.js';
import { loadGates } from '../src/load/gates.js';
import { findK6 } from '../src/load/k6.js';
import { emitK6Operator } from '../src/load/operator.js';
import { readPodLogs, runOfPodLogs, scenarioOfRequirements } from '../src/load/podLogs.js';
import { runLoad, selectedCases, type LoadOutcome } from '../src/load/run.js';
import type { Summary } from '../src/load/summary.js';
import { scenarioChecks } from '../src/load/verdict.js';
import type { RunResults } from '../src/report/results.js';
import { requirementResults, summarize } from '../src/report/verdict.js';
import { segmentsOf } from '../scenarios/lib/keyShare.ts';
import { startEmbedded } from './support/embedded.js';

const REPO = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'rampart-load-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const summaryOf = (reqs: Record<string, [number, number]>, extra: Record<string, unknown> = {}): Summary => ({
  metrics: {
    http_reqs: { type: 'counter', values: { count: 10, rate: 1 } },
    ...Object.fromEntries(
      Object.entries(reqs).map(([id, [passes, fails]]) => [
        `checks{req:${id}}`,
        { type: 'rate', values: { passes, fails, rate: passes / (passes + fails) }, thresholds: { 'rate==1': { ok: fails === 0 } } },
      ]),
    ),
  },
  state: { testRunDurationMs: 1000 },
  ...extra,
});

describe('reading the pods’ logs', () => {
  const ttl = { 'POOLS-TTL-EXPIRES-AT': [3, 0], 'POOLS-TTL-UNDER-LOAD': [3, 0] } as Record<string, [number, number]>;
  const record = { kind: 'quoteTtl', seconds: 15.1 };

  it('finds summaries and records behind kubectl prefixes and timestamps, in logfmt and in JSON', () => {
    const logfmt = `time="2026-01-01T00:00:00Z" level=info msg="RAMPART ${JSON.stringify(record).replace(/"/g, '\\"')}" source=console`;
    const json = JSON.stringify({ level: 'info', msg: `RAMPART ${JSON.stringify(record)}`, source: 'console', time: '2026-01-01T00:00:00Z' });
    const text = [
      `[pod/rampart-quote-ttl-1-abcde/k6] ${logfmt}`,
      `[pod/rampart-quote-ttl-1-abcde/k6] RAMPART_SUMMARY ${JSON.stringify(summaryOf(ttl))}`,
      `2026-01-01T00:00:01.000000000Z ${json}`,
      `2026-01-01T00:00:02.000000000Z RAMPART_SUMMARY ${JSON.stringify(summaryOf(ttl))}`,
      'time="2026-01-01T00:00:03Z" level=info msg="some other k6 line"',
    ].join('\n');
    const logs = readPodLogs(text);
    expect(logs.summaries).toHaveLength(2);
    expect(logs.records).toEqual([record, record]);
    expect(logs.torn).toBe(0);
    expect(scenarioOfRequirements(Object.keys(ttl))).toBe('quote-ttl');
    // smoke and soak prove no requirement: only their name tells them apart.
    expect(scenarioOfRequirements([])).toBeUndefined();
  });

  it('a pod without a whole summary line fails every requirement of the scenario, as a local segment without summary.json does', () => {
    const text = [`RAMPART_SUMMARY ${JSON.stringify(summaryOf(ttl))}`, `RAMPART_SUMMARY ${JSON.stringify(summaryOf(ttl)).slice(0, 40)}`].join('\n');
    const logs = readPodLogs(text);
    expect(logs.torn).toBe(1);
    const torn = scenarioChecks('quote-ttl', Object.keys(ttl), runOfPodLogs('quote-ttl', logs));
    expect(torn.map((c) => c.status)).toEqual(['failed', 'failed']);
    expect(torn[0]!.failure!.message).toContain('k6 wrote no summary (segment pod 2 of 2)');
    // One pod's summary where the TestRun had two: the missing pod fails the run too.
    const missing = scenarioChecks('quote-ttl', Object.keys(ttl), runOfPodLogs('quote-ttl', readPodLogs(text.split('\n')[0]!), 2));
    expect(missing.every((c) => c.status === 'failed')).toBe(true);
    // Both whole: the merged counts decide (a failed check in one pod fails the requirement).
    const both = runOfPodLogs(
      'quote-ttl',
      readPodLogs([summaryOf(ttl), summaryOf({ ...ttl, 'POOLS-TTL-UNDER-LOAD': [2, 1] })].map((s) => `RAMPART_SUMMARY ${JSON.stringify(s)}`).join('\n')),
    );
    expect(scenarioChecks('quote-ttl', Object.keys(ttl), both).map((c) => `${c.requirements[0]} ${c.status}`)).toEqual([
      'POOLS-TTL-EXPIRES-AT passed',
      'POOLS-TTL-UNDER-LOAD failed',
    ]);
    expect(both.segments.map((s) => s.exitCode)).toEqual([0, 99]);
  });
});

const k6 = findK6();
const noK6 = 'missing' in k6 ? k6.missing : undefined;

/** A k6 process as a runner pod runs it: no RAMPART_OUT, so the summary is a stdout line; console records on stderr. */
function runPod(archive: string, segment: string, sequence: string, env: Record<string, string>): Promise<{ code: number | null; log: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      (k6 as { path: string }).path,
      ['run', '--no-color', '--no-usage-report', `--execution-segment=${segment}`, `--execution-segment-sequence=${sequence}`, archive],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', K6_NO_USAGE_REPORT: 'true', ...env } },
    );
    let log = '';
    child.stdout.on('data', (c: Buffer) => (log += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (log += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, log }));
  });
}

const verdictOf = (out: LoadOutcome) => {
  const results = {
    runId: 'x',
    tool: { name: 'rampart' as const, version: '0' },
    command: 'load',
    depth: 'quick' as const,
    startedAt: '',
    finishedAt: '',
    profile: { name: 'p', baseUrls: {} },
    environment: { node: '', platform: '', host: '', specVersion: '' },
    checks: out.checks,
    observations: out.observations,
    requirements: requirementResults(out.checks, { kinds: ['load'], depth: 'quick' }),
  };
  return summarize(results);
};

describe.skipIf(!!noK6)(`merging a split run from its logs${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  let ref: RunningReference;
  const gates = { ...loadGates(), smokeDurationSeconds: 6, quoteTtlDurationSeconds: 3 };
  beforeAll(async () => {
    ref = await startEmbedded({ tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: 0.1 } }) });
  });
  afterAll(async () => ref?.close());

  it(
    'the summaries of a local 2-segment smoke run, printed as pods print them, merge into the same checks, summary and total',
    { timeout: 120_000 },
    async () => {
      const runDir = join(dir, 'local-smoke');
      const local = await runLoad({ profile: ref.profile, scenarios: ['smoke'], depth: 'quick', runDir, gates, segments: 2, seed: 11 });
      const parts = [1, 2].map((i) => readFileSync(join(runDir, 'k6', 'smoke', `segment-${i}`, 'summary.json'), 'utf8'));
      const logs = parts
        .map((p, i) =>
          [
            `[pod/rampart-smoke-${i + 1}-x7k2p/k6] time="2026-01-01T00:00:00Z" level=info msg="k6 started"`,
            `[pod/rampart-smoke-${i + 1}-x7k2p/k6] RAMPART_SUMMARY ${JSON.stringify(JSON.parse(p))}`,
          ].join('\n'),
        )
        .join('\n');
      const file = join(dir, 'smoke.log');
      writeFileSync(file, logs);
      const reports = join(dir, 'reports-smoke');
      const cli = spawnSync(
        process.execPath,
        [join(REPO, 'bin', 'rampart.js'), 'load', '--merge', file, '--scenario', 'smoke', '--segments', '2', '--reports-dir', reports],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(cli.status, cli.stdout + cli.stderr).toBe(0);
      const merged = JSON.parse(readFileSync(join(reports, 'latest', 'results.json'), 'utf8')) as RunResults;
      const statuses = (cs: { name: string; status: string }[]) => cs.map((c) => `${c.status} ${c.name}`);
      expect(statuses(merged.checks)).toEqual(statuses(local.checks));
      expect(merged.summary.verdict).toBe(verdictOf(local).verdict);
      expect(merged.summary.passed).toBe(verdictOf(local).passed);
      const total = (m: Record<string, unknown> | undefined) => (m?.['k6:smoke'] as { requests: number }).requests;
      expect(total(merged.metrics)).toBe(total(local.metrics));
      expect(total(merged.metrics)).toBeGreaterThan(0);
      // The merged summary is the one the local merge wrote.
      expect(JSON.parse(readFileSync(join(reports, 'latest', 'k6', 'smoke', 'summary.json'), 'utf8'))).toEqual(
        JSON.parse(readFileSync(join(runDir, 'k6', 'smoke', 'summary.json'), 'utf8')),
      );
      expect(cli.stdout).toContain("smoke: 2 of 2 pods' summaries");
    },
  );

  it('the emitted quote-ttl archive run as 2 pods: their logs merge into the verdict of the local --segments 2 run', { timeout: 150_000 }, async () => {
    const bundle = join(dir, 'k8s');
    const [emitted] = emitK6Operator({
      profile: ref.profile,
      scenarios: ['quote-ttl'],
      depth: 'quick',
      gates,
      segments: 2,
      dir: bundle,
      k6: (k6 as { path: string }).path,
      seed: 5,
      selectedCases: (n) => selectedCases(n, 'quick'),
    });
    expect(readFileSync(join(emitted!.dir, 'README.md'), 'utf8')).toContain('rampart load --merge quote-ttl.log --segments 2 --scenario quote-ttl');
    const byName = new Map([...ref.profile.gate.partners, ...(ref.profile.pools?.partners ?? [])].map((p) => [p.name, p.secretKey]));
    const env = Object.fromEntries(emitted!.keys.map((k) => [k.env, byName.get(k.partner)!]));
    const { segments, sequence } = segmentsOf(2);
    // The pods first, then the local split: both on the same pools keys, never at once.
    const pods = await Promise.all(segments.map((s) => runPod(join(emitted!.dir, 'archive.tar'), s, sequence, env)));
    const local = await runLoad({
      profile: ref.profile,
      scenarios: ['quote-ttl'],
      depth: 'quick',
      runDir: join(dir, 'local-ttl'),
      gates,
      segments: 2,
      seed: 5,
    });
    expect(
      pods.map((p) => p.code),
      pods.map((p) => p.log.slice(-1500)).join('\n'),
    ).toEqual([0, 0]);
    const file = join(dir, 'quote-ttl.log');
    writeFileSync(file, pods.map((p) => p.log).join('\n'));
    const reports = join(dir, 'reports-ttl');
    mkdirSync(reports, { recursive: true });
    // No --scenario: the requirements the summaries prove name it.
    const cli = spawnSync(process.execPath, [join(REPO, 'bin', 'rampart.js'), 'load', '--merge', file, '--segments', '2', '--reports-dir', reports], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(cli.status, cli.stdout + cli.stderr).toBe(0);
    const merged = JSON.parse(readFileSync(join(reports, 'latest', 'results.json'), 'utf8')) as RunResults;
    const byReq = (cs: readonly { requirements: readonly string[]; status: string }[]) => cs.map((c) => `${c.requirements.join(',')} ${c.status}`).sort();
    console.log(`quote-ttl merged from pods: ${byReq(merged.checks).join('; ')}; local: ${byReq(local.checks).join('; ')}`);
    expect(byReq(merged.checks)).toEqual(byReq(local.checks));
    expect(merged.checks.every((c) => c.status === 'passed')).toBe(true);
    expect(merged.summary.verdict).toBe(verdictOf(local).verdict);
    // The pods' records came through: the TTL samples the report charts.
    const samples = (merged.metrics?.quoteTtl as { samplesSeconds: number[] }).samplesSeconds;
    expect(samples.length).toBeGreaterThan(0);
  });
});
