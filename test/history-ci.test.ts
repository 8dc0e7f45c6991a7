// The GitHub Action (action.yml) and the workflows of docs/ci.md, parsed: a composite action with the profile, depth,
// baseline and history inputs, whose certify step takes its inputs through the environment and, run here with a
// stand-in rampart, passes each as its flag, writes its outputs and exits as rampart did; docs/ci.md's nightly
// workflow keeps the SQLite store between runs with actions/cache (a key per run, restored by prefix), its shared
// one uses a PostgreSQL URL from a secret, and every input they give the action is one it declares.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RelativeGates } from '../src/load/gates.js';

const ROOT = join(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-action-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  if?: string;
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};
const docs = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
const workflows = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!) as { jobs: Record<string, { steps: Step[] }> });
const stepsOf = (w: (typeof workflows)[number]) => Object.values(w.jobs).flatMap((j) => j.steps);
const rampartStep = (w: (typeof workflows)[number]) => stepsOf(w).find((s) => s.uses === '<owner>/rampart@<ref>');

describe('action.yml', () => {
  it('is a composite action with the profile, depth, baseline and history inputs, every script in bash', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['profile', 'depth', 'baseline', 'history']));
    expect(action.inputs.depth!.default).toBe('quick');
    expect(Object.keys(action.outputs)).toEqual(['verdict', 'run-id', 'report']);
    for (const s of action.runs.steps.filter((s) => s.run)) {
      expect(s.shell, s.name).toBe('bash');
      // An input spliced into a script is a script injection: they come through env only.
      expect(s.run, s.name).not.toMatch(/\$\{\{/);
      execFileSync('bash', ['-n', '-c', s.run!]);
    }
  });

  it('its certify step passes each input as its flag, writes its outputs and exits as rampart did', () => {
    const step = action.runs.steps.find((s) => s.id === 'certify')!;
    const actionPath = join(tmp, 'action');
    const reports = join(tmp, 'reports');
    mkdirSync(join(actionPath, 'bin'), { recursive: true });
    // A stand-in rampart: records its arguments and writes the run a NOT CERTIFIED certify would.
    writeFileSync(
      join(actionPath, 'bin', 'rampart.js'),
      `const fs = require('fs'); const args = process.argv.slice(2);
fs.writeFileSync(${JSON.stringify(join(tmp, 'argv.json'))}, JSON.stringify(args));
const dir = args[args.indexOf('--reports-dir') + 1] + '/latest'; fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(dir + '/results.json', JSON.stringify({ runId: 'RUN-7', summary: { verdict: 'NOT CERTIFIED' } }));
process.exit(1);`,
    );
    const output = join(tmp, 'github-output');
    writeFileSync(output, '');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_OUTPUT: output,
      RAMPART_IN_PROFILE: 'sandbox.json',
      RAMPART_IN_DEPTH: 'full',
      RAMPART_IN_BASELINE: 'last-certified',
      RAMPART_IN_HISTORY: 'postgres://rampart:pw@db.internal/rampart',
      RAMPART_IN_REPORTS_DIR: reports,
      RAMPART_IN_GATES: '',
      RAMPART_IN_FAIL_INCOMPLETE: 'true',
    };
    // The step's env names each input, and nothing else reaches the script.
    expect(Object.keys(step.env!).sort()).toEqual(
      Object.keys(env)
        .filter((k) => k.startsWith('RAMPART_IN_'))
        .sort(),
    );
    const r = spawnSync('bash', ['-e', '-c', step.run!], { env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(1);
    expect(JSON.parse(readFileSync(join(tmp, 'argv.json'), 'utf8'))).toEqual([
      'certify',
      '--depth',
      'full',
      '--reports-dir',
      reports,
      '--annotations',
      'github',
      '--profile',
      'sandbox.json',
      '--baseline',
      'last-certified',
      '--history',
      'postgres://rampart:pw@db.internal/rampart',
      '--fail-incomplete',
    ]);
    expect(readFileSync(output, 'utf8')).toBe(`verdict=NOT CERTIFIED\nrun-id=RUN-7\nreport=${reports}/latest/report.html\n`);
  });
});

describe("docs/ci.md's workflows", () => {
  it('the nightly one keeps the SQLite store between runs with actions/cache: restored by prefix, saved under a key of its own', () => {
    const nightly = workflows.find((w) => rampartStep(w)?.with?.depth === 'full')!;
    const steps = stepsOf(nightly);
    const restore = steps.find((s) => s.uses === 'actions/cache/restore@v4')!;
    const save = steps.find((s) => s.uses === 'actions/cache/save@v4')!;
    const at = (s: Step) => steps.indexOf(s);
    expect(at(restore)).toBeLessThan(at(rampartStep(nightly)!));
    expect(at(save)).toBeGreaterThan(at(rampartStep(nightly)!));
    expect(restore.with).toMatchObject({ path: 'reports/history.db', key: 'rampart-history-${{ github.run_id }}', 'restore-keys': 'rampart-history-' });
    expect(save.with).toMatchObject({ path: 'reports/history.db', key: restore.with!.key });
    expect(save.if).toBe('always()');
    expect(rampartStep(nightly)!.with!.history).toBeUndefined();
  });

  it('the shared one records into PostgreSQL from a secret; every input given the action is one it declares', () => {
    const shared = workflows.find((w) => rampartStep(w)?.with?.history)!;
    expect(rampartStep(shared)!.with!.history).toBe('${{ secrets.RAMPART_HISTORY_URL }}');
    const users = workflows.filter((w) => rampartStep(w));
    expect(users).toHaveLength(2);
    for (const w of users) for (const k of Object.keys(rampartStep(w)!.with ?? {})) expect(Object.keys(action.inputs)).toContain(k);
  });

  it("the repository's own workflow caches the store too, and the relative gates shown are the gates file's", () => {
    const own = workflows.find((w) => 'certify-sandbox' in w.jobs)!;
    const paths = stepsOf(own)
      .filter((s) => s.uses?.startsWith('actions/cache/'))
      .map((s) => String(s.with?.path));
    expect(paths.filter((p) => p.includes('reports/history.db'))).toHaveLength(2);
    const shown = /```json\n([\s\S]*?)```/.exec(docs.slice(docs.indexOf('### Baselines')))![1]!;
    expect(RelativeGates.parse(JSON.parse(`{${shown}}`).relative)).toEqual({ p95Ratio: 1.2, minDeltaMs: 50 });
  });
});
