// rampart's command line. The contract (commands, flags, exit codes) is fixed
// by the README; everything else lives in the modules this file wires.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import type { ToxiproxyMode } from '../chaos/toxiproxy.js';
import { registerSecret, redact } from '../client/redact.js';
import { ProfileError } from '../profile/load.js';
import type { Profile } from '../profile/schema.js';
import type { CheckResult, Observation, RunResults } from '../report/results.js';
import { newRunId, writeRun } from '../report/writeRun.js';
import { createProgress } from '../runner/progress.js';
import { loadConformanceSuites, requirementResults, runChecks, unknownRequirementIds } from '../runner/run.js';
import { SPEC_VERSION } from '../model/limits.js';
import { EXIT, RunError } from './exitCodes.js';
import { assertSafeForTraffic, preflight, resolveTarget, type ResolvedTarget } from './target.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

type SuiteKind = 'conformance' | 'load' | 'chaos';

interface RunOpts {
  profile?: string;
  service?: 'gate' | 'pools';
  grep?: string;
  depth: 'quick' | 'full';
  fault?: string[];
  reportsDir: string;
  allowLive?: boolean;
  concurrency?: string;
  scenario?: string[];
  case?: string[];
  gates?: string;
  // rampart load: split into k6 execution segments, pass k6 outputs, seed the traffic mix, emit a k6-operator bundle.
  segments?: string;
  k6Out?: string[];
  seed?: string;
  emit?: string[];
}

function registerProfileSecrets(profile: Profile): void {
  const add = (v?: string) => v && registerSecret(v);
  for (const p of profile.gate.partners) [p.secretKey, p.publishableKey, p.liveSecretKey, p.livePublishableKey, p.revokedSecretKey, p.webhookSecret].forEach(add);
  for (const p of profile.pools?.partners ?? []) [p.secretKey, p.publishableKey, p.webhookSecret].forEach(add);
}

function emptyResults(command: string, depth: 'quick' | 'full', startedAt: Date, profileName: string, baseUrls: Record<string, string | undefined>): RunResults {
  return {
    runId: newRunId(startedAt),
    tool: { name: 'rampart', version: pkg.version },
    command,
    depth,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    profile: { name: profileName, baseUrls },
    environment: { node: process.version, platform: `${process.platform}-${process.arch}`, host: hostname(), specVersion: SPEC_VERSION },
    summary: { passed: 0, failed: 0, skipped: 0, notCovered: 0, checks: { passed: 0, failed: 0, skipped: 0 } },
    requirements: [],
    checks: [],
    observations: [],
  };
}

function baseUrlsOf(profile: Profile): Record<string, string | undefined> {
  return {
    gateSandbox: profile.gate.baseUrls.sandbox,
    gateProduction: profile.gate.baseUrls.production,
    poolsSandbox: profile.pools?.baseUrls.sandbox,
    poolsProduction: profile.pools?.baseUrls.production,
  };
}

/** Run the given suites and write the run directory. Returns the exit code. */
async function run(kinds: SuiteKind[], command: string, opts: RunOpts): Promise<number> {
  const startedAt = new Date();
  const depth = opts.depth;
  const progress = createProgress();
  let target: ResolvedTarget | undefined;
  let results = emptyResults(command, depth, startedAt, opts.profile ?? 'embedded', {});
  let exitCode: number = EXIT.ok;
  try {
    target = await resolveTarget({ profile: opts.profile, faults: opts.fault });
    const profile = target.profile;
    registerProfileSecrets(profile);
    results = emptyResults(command, depth, startedAt, profile.name + (target.faults.length ? ` [faults: ${target.faults.join(', ')}]` : ''), baseUrlsOf(profile));
    const services: ('gate' | 'pools')[] = opts.service ? [opts.service] : profile.pools ? ['gate', 'pools'] : ['gate'];
    await preflight(profile, services);

    if (kinds.includes('load') || kinds.includes('chaos')) assertSafeForTraffic(profile, !!opts.allowLive, kinds.includes('load') ? 'load' : 'chaos');

    // A bad RAMPART_TOXIPROXY is a usage error before any traffic, not a late surprise.
    let chaosMode: ToxiproxyMode | undefined;
    if (kinds.includes('chaos')) {
      const { toxiproxyMode } = await import('../chaos/toxiproxy.js');
      try {
        chaosMode = toxiproxyMode();
      } catch (e) {
        throw new RunError((e as Error).message, EXIT.usage);
      }
    }

    const checks: CheckResult[] = [];
    const observations: Observation[] = [];
    const runDir = join(opts.reportsDir, results.runId);
    mkdirSync(runDir, { recursive: true });
    if (kinds.includes('conformance')) {
      const suites = await loadConformanceSuites(opts.service);
      const unknown = unknownRequirementIds(suites);
      if (unknown.length) throw new RunError(`conformance suites name requirement ids missing from the catalogue: ${unknown.join(', ')}`, EXIT.usage);
      const out = await runChecks({
        profile,
        suites,
        depth,
        grep: opts.grep,
        progress,
        concurrency: opts.concurrency ? Number(opts.concurrency) : undefined,
        suiteName: 'conformance',
      });
      checks.push(...out.checks);
      observations.push(...out.observations);
    }
    if (kinds.includes('chaos')) {
      const { loadSuites } = await import('../runner/run.js');
      const { startToxiproxy } = await import('../chaos/toxiproxy.js');
      const { installChaos } = await import('../chaos/kit.js');
      const suites = await loadSuites('chaos', opts.service);
      const unknown = unknownRequirementIds(suites);
      if (unknown.length) throw new RunError(`chaos suites name requirement ids missing from the catalogue: ${unknown.join(', ')}`, EXIT.usage);
      const tp = await startToxiproxy(chaosMode);
      if ('missing' in tp) {
        progress.line(`- chaos skipped: ${tp.missing}`);
        for (const suite of suites)
          for (const c of suite.checks)
            checks.push({ name: c.name, suite: 'chaos', file: suite.file, requirements: c.requirements, status: 'skipped', reason: `no Toxiproxy: ${tp.missing}`, durationMs: 0 });
      } else {
        progress.line(`- chaos: Toxiproxy from ${tp.source}`);
        try {
          const out = await runChecks({
            profile,
            suites,
            depth,
            grep: opts.grep,
            progress,
            concurrency: opts.concurrency ? Number(opts.concurrency) : 8,
            suiteName: 'chaos',
            prepare: (shared) => installChaos(shared, tp),
          });
          checks.push(...out.checks);
          observations.push(...out.observations);
        } finally {
          await tp.close();
        }
      }
    }
    if (kinds.includes('load')) {
      const { runLoad, DEFAULT_SCENARIOS, SCENARIO_NAMES } = await import('../load/run.js');
      const { loadGates } = await import('../load/gates.js');
      const unknown = (opts.scenario ?? []).filter((n) => !(SCENARIO_NAMES as string[]).includes(n));
      if (unknown.length) throw new RunError(`unknown scenario ${unknown.join(', ')} — choose from ${SCENARIO_NAMES.join(', ')}`, EXIT.usage);
      const names = (opts.scenario?.length ? opts.scenario : DEFAULT_SCENARIOS) as typeof DEFAULT_SCENARIOS;
      const { parseSegments, parseSeed } = await import('../load/cli.js');
      const out = await runLoad({
        profile,
        scenarios: names,
        depth,
        cases: opts.case,
        runDir,
        gates: loadGates(opts.gates),
        log: (l) => progress.line(l),
        segments: parseSegments(opts.segments),
        k6Out: opts.k6Out,
        seed: parseSeed(opts.seed),
      });
      checks.push(...out.checks);
      observations.push(...out.observations);
      results.metrics = { ...(results.metrics ?? {}), ...out.metrics };
    }
    // Retry gaps measured by chaos checks feed the report's schedule chart.
    const gaps = observations.filter((o) => o.topic === 'retry-gap').map((o) => ({ check: o.check, ...(o.value as object) }));
    if (gaps.length) results.metrics = { ...(results.metrics ?? {}), retryGaps: gaps };
    const suitesRun = new Set(kinds);
    results.checks = checks;
    results.observations = observations;
    results.requirements = requirementResults(
      checks,
      (r) => suitesRun.has(r.suite) && (!opts.service || r.service === opts.service),
    );
  } catch (e) {
    if (e instanceof ProfileError || e instanceof RunError) {
      exitCode = e.exitCode;
      results.error = { message: e.message, exitCode };
    } else {
      // A defect of rampart itself: still write the report, with the cause.
      exitCode = EXIT.internal;
      results.error = { message: `internal error: ${(e as Error)?.message ?? String(e)}`, exitCode };
      process.stderr.write(redact(`rampart: internal error: ${(e as Error)?.stack ?? String(e)}`) + '\n');
    }
  } finally {
    progress.stop();
    await target?.close();
  }

  const reqs = results.requirements;
  results.summary = {
    passed: reqs.filter((r) => r.status === 'passed').length,
    failed: reqs.filter((r) => r.status === 'failed').length,
    skipped: reqs.filter((r) => r.status === 'skipped').length,
    notCovered: reqs.filter((r) => r.status === 'not_covered').length,
    checks: {
      passed: results.checks.filter((c) => c.status === 'passed').length,
      failed: results.checks.filter((c) => c.status === 'failed').length,
      skipped: results.checks.filter((c) => c.status === 'skipped').length,
    },
  };
  results.finishedAt = new Date().toISOString();
  if (exitCode === EXIT.ok && results.summary.checks.failed > 0) exitCode = EXIT.checkFailed;

  const { dir } = await writeRun(results, { reportsDir: opts.reportsDir });
  const s = results.summary;
  const secs = ((Date.parse(results.finishedAt) - startedAt.getTime()) / 1000).toFixed(1);
  if (results.error) process.stderr.write(redact(`rampart: ${results.error.message}`) + '\n');
  process.stdout.write(
    `requirements: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.notCovered} not covered · checks: ${s.checks.passed} passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped · ${secs}s\nreport: ${dir}/report.html\n`,
  );
  return exitCode;
}

const program = new Command();
program.name('rampart').description('Conformance, load and chaos certification for the Gate and pools partner APIs').version(pkg.version);

const depthOption = () => new Option('--depth <depth>', 'quick, or full (real-time windows and retry schedule)').choices(['quick', 'full']).default('quick');
const commonRunOptions = (c: Command) =>
  c
    .option('--profile <file>', 'target profile (default: start the embedded reference target)')
    .addOption(depthOption())
    .option('--fault <name...>', 'start the embedded target with these seeded faults (see rampart serve --list-faults)')
    .option('--reports-dir <dir>', 'where run directories go', 'reports')
    .option('--concurrency <n>', 'checks run at once');

commonRunOptions(
  program
    .command('conformance')
    .description('run the conformance suites against a target')
    .addOption(new Option('--service <service>', 'only one service').choices(['gate', 'pools']))
    .option('--grep <text>', 'only checks whose name, file or requirement ids contain the text'),
).action(async (opts: RunOpts) => {
  process.exitCode = await run(['conformance'], 'conformance', opts);
});

commonRunOptions(
  program
    .command('load')
    .description('run the k6 load scenarios (rate limits, quote TTL, transact race, smoke) against a target')
    .option('--scenario <name...>', 'scenarios to run (default: all but soak)')
    .option('--case <name...>', 'only these cases of the scenarios (e.g. burst)')
    .option('--gates <file>', 'performance gates (thresholds) file', 'fixtures/gates.json')
    .option('--allow-live', 'allow live keys and production base URLs')
    .option('--segments <n>', 'run each scenario as n k6 processes (execution segments, as k6-operator splits a TestRun), each with its own keys')
    .option('--k6-out <spec...>', 'k6 outputs to pass through (--out), e.g. json=FILE, csv=FILE, experimental-prometheus-rw, opentelemetry')
    .option('--seed <n>', 'seed of the smoke/soak traffic mix (recorded in the report)')
    .option('--emit <format-and-dir...>', 'k6-operator DIR: write the k6 archive, ConfigMap, Secret template and TestRun for this run instead of running it'),
).action(async (opts: RunOpts) => {
  if (opts.emit) {
    const { emitCommand } = await import('../load/cli.js');
    process.exitCode = emitCommand({ ...opts, emit: opts.emit });
    return;
  }
  const { parseSegments, parseSeed, scenarioNames } = await import('../load/cli.js');
  parseSegments(opts.segments);
  parseSeed(opts.seed);
  scenarioNames(opts.scenario);
  process.exitCode = await run(['load'], 'load', opts);
});

commonRunOptions(
  program
    .command('chaos')
    .description('run the chaos suites (webhook retries, dead-letters, replays under network faults) through Toxiproxy')
    .addOption(new Option('--service <service>', 'only one service').choices(['gate', 'pools']))
    .option('--grep <text>', 'only checks whose name, file or requirement ids contain the text')
    .option('--allow-live', 'allow live keys and production base URLs'),
).action(async (opts: RunOpts) => {
  process.exitCode = await run(['chaos'], 'chaos', opts);
});

commonRunOptions(
  program
    .command('certify')
    .description('conformance, load and chaos against one target, one report')
    .option('--gates <file>', 'performance gates (thresholds) file', 'fixtures/gates.json')
    .option('--allow-live', 'allow live keys and production base URLs'),
).action(async (opts: RunOpts) => {
  process.exitCode = await run(['conformance', 'chaos', 'load'], 'certify', opts);
});

program
  .command('serve')
  .description('run the embedded reference target (both services)')
  .option('--profile <file>', 'profile to build the world from', 'fixtures/profiles/embedded.json')
  .option('--fault <name...>', 'seeded faults to switch on')
  .option('--list-faults', 'list the seeded faults and exit')
  .option('--write-profile <file>', 'write the running profile (its URLs and the live keys the target issued) for a harness in another process')
  .action(async (opts: { profile: string; fault?: string[]; listFaults?: boolean; writeProfile?: string }) => {
    const { ALL_FAULTS } = await import('../reference/faults.js');
    if (opts.listFaults) {
      for (const f of ALL_FAULTS) process.stdout.write(`${f.name}\t${f.service}\t${f.requirements.join(',')}\t${f.description}\n`);
      process.stdout.write(`${ALL_FAULTS.length} faults\n`);
      return;
    }
    const { loadProfile } = await import('../profile/load.js');
    const { startReference } = await import('../reference/server.js');
    const profile = loadProfile(opts.profile);
    let running;
    try {
      running = await startReference({ profile, faults: opts.fault ?? [], log: (l) => process.stderr.write(redact(l) + '\n') });
    } catch (e) {
      throw new RunError((e as Error).message, EXIT.usage);
    }
    // The issued live keys exist only in the running profile: hand it over through a file
    // readable by this user alone, never on the terminal.
    if (opts.writeProfile) writeFileSync(opts.writeProfile, JSON.stringify(running.profile, null, 2) + '\n', { mode: 0o600 });
    const issued = profile.reference?.liveKeysFor ?? [];
    process.stdout.write(
      `rampart reference target (profile ${profile.name})\n  gate sandbox     ${running.urls.gateSandbox}\n  gate production  ${running.urls.gateProduction}\n  pools sandbox    ${running.urls.poolsSandbox}\n  pools production ${running.urls.poolsProduction}\n` +
        (running.faults.length ? `  faults: ${running.faults.join(', ')}\n` : '') +
        (issued.length ? `  live keys issued to ${issued.join(', ')}${opts.writeProfile ? '' : ' (pass --write-profile FILE to hand them to a harness)'}\n` : '') +
        (opts.writeProfile ? `  profile written to ${opts.writeProfile}: rampart conformance --profile ${opts.writeProfile}\n` : '') +
        'Ctrl-C to stop.\n',
    );
    const stop = async () => {
      await running.close();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

program
  .command('report [runDir]')
  .description('rebuild report.html from results.json (default: reports/latest), or compare two runs')
  .option('--compare <runs...>', 'two run directories A B: list what changed, new failures first')
  .action(async (runDir: string | undefined, opts: { compare?: string[] }) => {
    if (opts.compare) {
      if (opts.compare.length !== 2) throw new RunError('--compare takes two run directories: --compare A B', EXIT.usage);
      const { compareRuns, formatComparison } = await import('../report/compare.js');
      const read = (d: string) => {
        try {
          return JSON.parse(readFileSync(`${d}/results.json`, 'utf8')) as RunResults;
        } catch (e) {
          throw new RunError(`cannot read ${d}/results.json (${(e as Error).message}) — pass run directories under reports/`, EXIT.usage);
        }
      };
      const diff = compareRuns(read(opts.compare[0]!), read(opts.compare[1]!));
      process.stdout.write(formatComparison(diff) + '\n');
      process.exitCode = diff.newFailures.length ? EXIT.checkFailed : EXIT.ok;
      return;
    }
    const { renderReport } = await import('../report/html.js');
    const dir = runDir ?? 'reports/latest';
    try {
      const out = await renderReport(dir);
      process.stdout.write(`report: ${out}\n`);
    } catch (e) {
      throw new RunError(`cannot rebuild the report from ${dir}/results.json (${(e as Error).message})`, EXIT.usage);
    }
  });

program.exitOverride();
try {
  await program.parseAsync(process.argv);
} catch (e) {
  const err = e as { code?: string; exitCode?: number; message?: string };
  if (err.code?.startsWith('commander.')) {
    process.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : EXIT.usage;
  } else if (e instanceof RunError || e instanceof ProfileError) {
    process.stderr.write(redact(`rampart: ${e.message}`) + '\n');
    process.exitCode = e.exitCode;
  } else {
    process.stderr.write(redact(`rampart: internal error: ${(e as Error)?.stack ?? String(e)}`) + '\n');
    process.exitCode = EXIT.internal;
  }
}
