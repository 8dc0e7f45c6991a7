// End to end, through the real CLI (node bin/rampart.js) against the embedded
// target: a seeded-fault conformance run writes a reproduction command per
// failure (results.json and report.html) that, run with the profile's variable
// set, gets the failing answer again; --har writes a valid HAR holding every
// exchange the run counted and no secret; GITHUB_STEP_SUMMARY gets the verdict
// and the failures table; --annotations github prints one ::error per failure.
// The target is started here, so it outlives the CLI and the commands can be
// replayed; its profile names every key as ${VAR}, as a partner's would.
import { Ajv } from 'ajv';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from '../src/reference/server.js';
import type { Har } from '../src/report/har.js';
import { esc } from '../src/report/html.js';
import type { RunResults } from '../src/report/results.js';
import { scanDir, scanText } from '../src/secrets/index.js';
import { startEmbedded } from './support/embedded.js';

const require = createRequire(import.meta.url);
const harSchemas = require('har-schema') as Record<string, object>;
const addFormats = require('ajv-formats') as (ajv: Ajv) => Ajv;
const draft06 = require('ajv/dist/refs/json-schema-draft-06.json') as object;

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-evidence-'));
const FAULT = 'sess-cancel-terminal-200';
const FAULT_REQUIREMENT = 'GATE-SESS-CANCEL-TERMINAL-409';
const GREP = 'cancel';

let ref: RunningReference;
let profileFile = '';
/** Variable name → key: what a partner's CI would hold as secrets. */
const keyEnv: Record<string, string> = {};
const secrets: string[] = [];

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
  results: RunResults;
}

function cli(args: string[], reportsDir: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'bin/rampart.js'), ...args, '--profile', profileFile, '--reports-dir', reportsDir], {
      cwd: root,
      env: { ...process.env, CI: '1', NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', ...keyEnv, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const guard = setTimeout(() => child.kill('SIGKILL'), 170_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(guard);
      try {
        const dir = realpathSync(join(reportsDir, 'latest'));
        done({ code, stdout, stderr, dir, results: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults });
      } catch (e) {
        fail(new Error(`no run directory (exit ${code}): ${stderr}`, { cause: e }));
      }
    });
  });
}

function sh(command: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('sh', ['-c', command], { cwd: tmp, timeout: 20_000, env: { PATH: process.env.PATH ?? '', ...env } }, (err, stdout, stderr) =>
      done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

/** curl -i output: the status of the last response and its body. */
function answer(curlOutput: string): { status: number; json: Record<string, unknown> } {
  const statuses = [...curlOutput.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)];
  const body = curlOutput
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n')
    .trim();
  return { status: Number(statuses.at(-1)?.[1]), json: JSON.parse(body) as Record<string, unknown> };
}

function harValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(draft06);
  addFormats(ajv);
  for (const [name, schema] of Object.entries(harSchemas)) if (name !== 'har') ajv.addSchema(schema);
  return ajv.compile(harSchemas.har!);
}

const varName = (partner: string, kind: string) => `RAMPART_E2E_${partner.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${kind}`;

let faultRun: Ran;
let summaryFile = '';

beforeAll(async () => {
  ref = await startEmbedded({ faults: [FAULT] });
  // The profile a partner would keep in its repository: every key is a ${VAR} reference.
  const profile = JSON.parse(JSON.stringify(ref.profile)) as typeof ref.profile;
  const asVar = (partner: string, kind: string, value: string | undefined): string | undefined => {
    if (!value) return value;
    const name = varName(partner, kind);
    keyEnv[name] = value;
    secrets.push(value);
    return `\${${name}}`;
  };
  for (const p of profile.gate.partners) {
    p.secretKey = asVar(p.name, 'SK', p.secretKey)!;
    p.publishableKey = asVar(p.name, 'PK', p.publishableKey);
    if (p.webhookSecret) secrets.push(p.webhookSecret);
  }
  for (const p of profile.pools?.partners ?? []) {
    p.secretKey = asVar(p.name, 'SK', p.secretKey)!;
    if (p.webhookSecret) secrets.push(p.webhookSecret);
  }
  profileFile = join(tmp, 'partner-profile.json');
  writeFileSync(profileFile, JSON.stringify(profile, null, 2), { mode: 0o600 });
  summaryFile = join(tmp, 'step-summary.md');
  writeFileSync(summaryFile, '# an earlier step\n');
  faultRun = await cli(['conformance', '--service', 'gate', '--grep', GREP, '--har', '--annotations', 'github'], join(tmp, 'reports-fault'), {
    GITHUB_STEP_SUMMARY: summaryFile,
  });
}, 180_000);

afterAll(async () => {
  await ref?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe(`a seeded-fault run (--fault ${FAULT} on the target, --grep ${GREP})`, () => {
  it("ends NOT CERTIFIED with exit 1, a failure naming the fault's requirement", () => {
    expect(faultRun.code, faultRun.stderr).toBe(1);
    expect(faultRun.results.summary.verdict).toBe('NOT CERTIFIED');
    expect(faultRun.results.checks.filter((c) => c.status === 'failed').map((c) => c.failure?.requirement)).toContain(FAULT_REQUIREMENT);
  });

  it('every failure carries a reproduction command in results.json and report.html, naming the key by its ${VAR}', () => {
    const failed = faultRun.results.checks.filter((c) => c.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const html = readFileSync(join(faultRun.dir, 'report.html'), 'utf8');
    for (const c of failed) {
      const r = c.failure?.reproduce;
      expect(r, c.name).toBeDefined();
      expect(r!.command, c.name).toMatch(/^curl /);
      expect(r!.env.length, c.name).toBeGreaterThan(0);
      for (const v of r!.env) expect(Object.keys(keyEnv), c.name).toContain(v);
      expect(r!.command).toContain(`"\${${r!.env[0]}}"`);
      for (const s of secrets) expect(r!.command).not.toContain(s);
      // In the page, as the <pre> the copy button copies.
      expect(html, c.name).toContain(`>${esc(r!.command)}</pre>`);
      if (r!.steps) expect(html, c.name).toContain(`>${esc(r!.steps)}</pre>`);
    }
    expect(html.match(/<button type="button" class="copy" data-copy="failure-\d+-cmd" hidden>copy<\/button>/g)).toHaveLength(failed.length);
  });

  it('a reproduction command, run with its variable set, gets the failing answer again (and without it, 401)', async () => {
    const c = faultRun.results.checks.find((x) => x.status === 'failed' && x.failure?.requirement === FAULT_REQUIREMENT && x.failure.reproduce)!;
    const r = c.failure!.reproduce!;
    const env = Object.fromEntries(r.env.map((v) => [v, keyEnv[v]!]));
    const replay = await sh(r.command, env);
    expect(replay.code, replay.stderr).toBe(0);
    const got = answer(replay.stdout);
    // The failure: the spec wants 409 here; the faulty target answers as it did in the run.
    expect(c.failure!.expected).toBe('409');
    const actualStatus = Number(c.failure!.actual!.slice(0, 3));
    expect(actualStatus).not.toBe(409);
    expect(got.status).toBe(actualStatus);
    const runStatus = /"status":"([a-z_]+)"/.exec(c.failure!.actual!)?.[1];
    expect(runStatus).toBeDefined();
    expect(got.json.status).toBe(runStatus);
    expect(replay.stdout).not.toContain(env[r.env[0]!]!);
    // The command's credential is the variable: unset, the target refuses it.
    const bare = await sh(r.command, {});
    expect(answer(bare.stdout).status).toBe(401);
  });

  it('run.har validates against har-schema, holds every exchange the run counted, and no secret', () => {
    const text = readFileSync(join(faultRun.dir, 'run.har'), 'utf8');
    const har = JSON.parse(text) as Har;
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    const counted = faultRun.results.summary.requests!;
    expect(counted.gate).toBeGreaterThan(0);
    expect(har.log.entries).toHaveLength(counted.gate + counted.pools);
    expect(har.log.comment).toBeUndefined();
    // Per check too: the entries it sent are the requests it counted.
    for (const c of faultRun.results.checks)
      expect(har.log.entries.filter((e) => e._check === c.name).length, c.name).toBe((c.requests?.gate ?? 0) + (c.requests?.pools ?? 0));
    // The failing request is in it, with the answer the run judged.
    const failing = faultRun.results.checks.find((x) => x.failure?.requestId)!.failure!;
    const entry = har.log.entries.find((e) => e.response.headers.some((h) => h.name.toLowerCase() === 'x-request-id' && h.value === failing.requestId));
    expect(entry).toBeDefined();
    expect(entry!.response.status).toBe(Number(failing.actual!.slice(0, 3)));
    expect(faultRun.stdout).toContain(`HAR: ${faultRun.dir}/run.har (${har.log.entries.length} exchanges)`);
    expect(scanText(text)).toEqual([]);
    for (const s of secrets) expect(text).not.toContain(s);
    expect(scanDir(faultRun.dir)).toEqual([]);
  });

  it('GITHUB_STEP_SUMMARY gets the markdown verdict and a failures table row per failed check, after what earlier steps wrote', () => {
    const md = readFileSync(summaryFile, 'utf8');
    expect(md.startsWith('# an earlier step\n## ❌ rampart conformance: NOT CERTIFIED\n')).toBe(true);
    const failed = faultRun.results.checks.filter((c) => c.status === 'failed');
    expect(md).toContain(`### Failures (${failed.length})`);
    const rows = md.split('\n').filter((l) => l.startsWith('| `GATE-'));
    expect(rows).toHaveLength(failed.length);
    for (const c of failed)
      expect(
        rows.some((r) => r.startsWith(`| \`${c.failure!.requirement}\` | ${c.name} |`)),
        c.name,
      ).toBe(true);
    expect(scanText(md)).toEqual([]);
  });

  it("--annotations github prints one ::error line per failure, at the check's file and line", () => {
    const lines = faultRun.stdout.split('\n').filter((l) => l.startsWith('::error'));
    const failed = faultRun.results.checks.filter((c) => c.status === 'failed');
    expect(lines).toHaveLength(failed.length);
    const source = readFileSync(join(root, 'conformance/gate/sessions.ts'), 'utf8').split('\n');
    for (const l of lines) {
      const m = /^::error file=([^,]+),line=(\d+),title=rampart ([A-Z0-9-]+)%3A ([^:]*)::(.+)$/.exec(l);
      expect(m, l).not.toBeNull();
      expect(m![1]).toBe('conformance/gate/sessions.ts');
      const name = m![4]!.replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%25/g, '%');
      expect(source[Number(m![2]) - 1], l).toContain(name.slice(0, 40));
      expect(m![3]).toBe(FAULT_REQUIREMENT);
    }
  });
});

describe('a passing run', () => {
  it('appends a passing summary (a partial run: PASSED, never CERTIFIED) to the same step summary file and prints no ::error', async () => {
    const before = readFileSync(summaryFile, 'utf8');
    // Same target: the fault touches only terminal cancels, so the creation checks pass.
    const ok = await cli(
      ['conformance', '--service', 'gate', '--grep', 'GATE-SESS-CREATE-REQUIRED-FIELDS', '--annotations', 'github'],
      join(tmp, 'reports-ok'),
      { GITHUB_STEP_SUMMARY: summaryFile },
    );
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.results.summary.failed).toBe(0);
    const after = readFileSync(summaryFile, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toMatch(/^\n?## (☑️|⚠️) rampart conformance: (PASSED|INCOMPLETE)\n/);
    expect(after.slice(before.length)).not.toContain('### Failures');
    expect(ok.stdout).not.toContain('::error');
  }, 120_000);
});
