// rampart's command line. The contract (commands, flags, exit codes) is fixed
// by the README; everything else lives in the modules this file wires.
import { readFileSync, writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { redact } from '../secrets/index.js';
import { ProfileError } from '../profile/load.js';
import type { RunResults } from '../report/results.js';
import { EXIT, RunError } from '../exitCodes.js';
import { runKinds, type RunOptions } from './run.js';
import { registerSetup, versionLines } from './commands/setup.js';

const program = new Command();
program
  .name('rampart')
  .description('Conformance, load and chaos certification for the Gate and pools partner APIs')
  .option('-V, --version', "print rampart's version and the pinned tools' (k6, Toxiproxy): found or not, and where")
  .on('option:version', () => {
    process.stdout.write(versionLines().join('\n') + '\n');
    process.exit(EXIT.ok);
  });
// Before any command is defined: subcommands inherit it, so a bad option exits 2 (usage), never 1.
program.exitOverride();

const depthOption = () => new Option('--depth <depth>', 'quick, or full (real-time windows and retry schedule)').choices(['quick', 'full']).default('quick');
const commonRunOptions = (c: Command) =>
  c
    .option('--profile <file>', 'target profile (default: start the embedded reference target)')
    .addOption(depthOption())
    .option('--fault <name...>', 'start the embedded target with these seeded faults (see rampart serve --list-faults)')
    .option('--reports-dir <dir>', 'where run directories go', 'reports')
    .option(
      '--history <url>',
      'record the run in a PostgreSQL store shared by many runners (postgres://…; default: RAMPART_HISTORY_URL, else <reports-dir>/history.db)',
    )
    .option('--concurrency <n>', 'checks run at once')
    .option('--resume <runDir>', 'continue an interrupted run: finished checks keep their results, the rest run, one report')
    .option('--fail-incomplete', 'exit 6 when the verdict is INCOMPLETE (requirements in scope not all asserted)')
    .option('--har', 'write every exchange of the run as HAR 1.2 (reports/<run>/run.har)')
    .addOption(new Option('--annotations <kind>', 'print a CI annotation per failure').choices(['github']))
    .option('--request-timeout <seconds>', 'per-attempt time to an answer (default: harness.requestTimeoutMs, 15 s)')
    .option('--max-body-bytes <n>', 'largest response body read (default: harness.maxBodyBytes, 8 MiB)')
    .option(
      '--rate-limit-budget <seconds>',
      'how long every key may be paused by Retry-After before the run ends (default: harness.rateLimitBudgetSeconds, 120)',
    );
const baselineHelp =
  "judge the gates file's relative gates (p95 per scenario and route group against the baseline's) against a run of the store: last-certified (the newest passing run of this target and scope) or a run id";
// A partial run takes --sign-key only to refuse it with the reason (a certificate is a whole run's), not as an unknown option.
const signKeyRefused = () => new Option('--sign-key <file>', 'refused: only rampart certify signs a certificate').hideHelp();

commonRunOptions(
  program
    .command('conformance')
    .description('run the conformance suites against a target')
    .addOption(signKeyRefused())
    .addOption(new Option('--service <service>', 'only one service').choices(['gate', 'pools']))
    .option('--grep <text>', 'only checks whose name, file or requirement ids contain the text'),
).action(async (opts: RunOptions) => {
  process.exitCode = await runKinds(['conformance'], 'conformance', opts);
});

commonRunOptions(
  program
    .command('load')
    .description('run the k6 load scenarios (rate limits, quote TTL, transact race, smoke) against a target')
    .addOption(signKeyRefused())
    .option('--scenario <name...>', 'scenarios to run (default: all but soak)')
    .option('--case <name...>', 'only these cases of the scenarios (e.g. burst)')
    .option('--gates <file>', "performance gates (thresholds) file (default: rampart's own fixtures/gates.json)")
    .option('--baseline <run>', baselineHelp)
    .option('--allow-live', 'allow live keys and production base URLs')
    .option('--segments <n>', 'run each scenario as n k6 processes (execution segments, as k6-operator splits a TestRun), each with its own keys')
    .option('--k6-out <spec...>', 'k6 outputs to pass through (--out), e.g. json=FILE, csv=FILE, experimental-prometheus-rw, opentelemetry')
    .option('--seed <n>', 'seed of the smoke/soak traffic mix (recorded in the report)')
    .option('--emit <format-and-dir...>', 'k6-operator DIR: write the k6 archive, ConfigMap, Secret template and TestRun for this run instead of running it')
    .option(
      '--merge <logs...>',
      "files of the runner pods' kubectl logs of a k6-operator run: merge their summaries into one verdict and report, as --segments N does locally (--segments N: the TestRun's parallelism)",
    ),
).action(async (opts: RunOptions & { merge?: string[] }) => {
  // --merge and --emit write no certificate (a merge is a load run's slice, an emit runs nothing): a key would be ignored.
  if (opts.signKey && (opts.merge || opts.emit))
    throw new RunError(
      `--sign-key is refused: load ${opts.merge ? '--merge' : '--emit'} writes no certificate (only rampart certify, a whole run, signs one)`,
      EXIT.usage,
    );
  if (opts.merge) {
    const { mergeCommand } = await import('./commands/merge.js');
    process.exitCode = await mergeCommand({ ...opts, merge: opts.merge });
    return;
  }
  if (opts.emit) {
    const { emitCommand } = await import('./commands/emit.js');
    process.exitCode = emitCommand({ ...opts, emit: opts.emit });
    return;
  }
  const { parseSegments, parseSeed, scenarioNames } = await import('../load/options.js');
  parseSegments(opts.segments);
  parseSeed(opts.seed);
  scenarioNames(opts.scenario);
  process.exitCode = await runKinds(['load'], 'load', opts);
});

commonRunOptions(
  program
    .command('chaos')
    .description('run the chaos suites (webhook retries, dead-letters, replays under network faults) through Toxiproxy')
    .addOption(signKeyRefused())
    .addOption(new Option('--service <service>', 'only one service').choices(['gate', 'pools']))
    .option('--grep <text>', 'only checks whose name, file or requirement ids contain the text')
    .option('--allow-live', 'allow live keys and production base URLs'),
).action(async (opts: RunOptions) => {
  process.exitCode = await runKinds(['chaos'], 'chaos', opts);
});

commonRunOptions(
  program
    .command('explore')
    .description(
      'random sequences of documented operations against the target and, step by step, the embedded reference as oracle; a divergence is shrunk, re-run and reported with a replay script',
    )
    .addOption(signKeyRefused())
    .addOption(new Option('--service <service>', 'only one service').choices(['gate', 'pools']))
    .option('--budget <n>', "requests the target may be sent, shrinking included (default: what fits the explore partner's keys' hour windows, at most 400)")
    .option('--seed <n>', 'replay an exploration exactly (the seed the report gives)'),
).action(async (opts: RunOptions) => {
  const { parseBudget, parseSeed } = await import('../explore/options.js');
  parseBudget(opts.budget);
  parseSeed(opts.seed);
  process.exitCode = await runKinds(['explore'], 'explore', opts);
});

commonRunOptions(
  program
    .command('races')
    .description(
      'bursts of concurrent documented requests on shared objects (one Idempotency-Key, one signed quote, one email, one balance), judged against fresh oracle worlds: some serial order that keeps real time must explain every answer and the state after',
    )
    .addOption(signKeyRefused())
    .addOption(new Option('--service <service>', 'only one service').choices(['gate', 'pools']))
    .option('--budget <n>', 'requests the target may be sent (default: 2 bursts per family, 4 at --depth full)')
    .option('--seed <n>', 'replay the orders of sending exactly (the seed the report gives)')
    .option('--family <id...>', 'only these race families (rampart plan --for races lists them)')
    .option(
      '--times <n>',
      "with one --family: fire its burst N times at once, each on fresh objects, and say how often a finding shows (a finding's replay script)",
    ),
).action(async (opts: RunOptions) => {
  const { parseRaceBudget, parseTimes } = await import('../races/options.js');
  const { parseSeed } = await import('../explore/options.js');
  parseRaceBudget(opts.budget);
  parseSeed(opts.seed);
  parseTimes(opts.times, opts.family);
  process.exitCode = await runKinds(['races'], 'races', opts);
});

commonRunOptions(
  program
    .command('certify')
    .description('conformance, load, chaos and races against one target, one report (and, at --depth full, explore)')
    .option('--gates <file>', "performance gates (thresholds) file (default: rampart's own fixtures/gates.json)")
    .option('--baseline <run>', baselineHelp)
    .option('--sign-key <file>', 'sign certificate.json with this Ed25519 key (rampart keys generate)')
    .option('--allow-live', 'allow live keys and production base URLs'),
).action(async (opts: RunOptions) => {
  // The nightly depth explores too: sequences no fixed check names, judged against the oracle.
  // Races at every depth, within a small budget of their own, on the partners reserved for them (beside the other kinds).
  process.exitCode = await runKinds(
    opts.depth === 'full' ? ['conformance', 'chaos', 'load', 'explore', 'races'] : ['conformance', 'chaos', 'load', 'races'],
    'certify',
    opts,
  );
});

program
  .command('plan')
  .description("before any traffic: the checks this profile runs and skips (and why), the requests per key, and the run's lower bound")
  .option('--profile <file>', "target profile (default: the embedded target's)")
  .addOption(new Option('--depth <depth>', 'quick or full').choices(['quick', 'full']).default('quick'))
  .addOption(new Option('--for <command>', 'the run to plan').choices(['conformance', 'chaos', 'load', 'explore', 'races', 'certify']).default('certify'))
  .option(
    '--budget <n>',
    "rampart explore's request budget (default: what fits the explore partner's keys' hour windows, at most 400), or rampart races' (default: 2 bursts per family)",
  )
  .addOption(new Option('--service <service>', 'only one service').choices(['gate', 'pools']))
  .option('--grep <text>', 'only checks whose name, file or requirement ids contain the text')
  .option('--json', 'print the plan as JSON')
  .option('--rtt <ms>', "the target's round trip, ms (default: what rampart doctor last measured for the profile's base URLs)")
  .action(
    async (opts: {
      profile?: string;
      depth: 'quick' | 'full';
      for: string;
      service?: 'gate' | 'pools';
      grep?: string;
      json?: boolean;
      rtt?: string;
      budget?: string;
    }) => {
      const { loadProfile } = await import('../profile/load.js');
      const { EMBEDDED_PROFILE } = await import('./target.js');
      const { planRun, formatPlan } = await import('../plan/plan.js');
      const { planRoundTrip } = await import('../plan/roundTrip.js');
      const rtt = opts.rtt === undefined ? undefined : Number(opts.rtt);
      if (rtt !== undefined && !(Number.isFinite(rtt) && rtt >= 0)) {
        process.stderr.write(`rampart: --rtt ${opts.rtt}: give the round trip in milliseconds, a number ≥ 0\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      const profile = loadProfile(opts.profile ?? EMBEDDED_PROFILE);
      const { parseBudget } = await import('../explore/options.js');
      const { parseRaceBudget } = await import('../races/options.js');
      const exploreBudget = opts.for === 'races' ? undefined : parseBudget(opts.budget);
      const raceBudget = opts.for === 'races' ? parseRaceBudget(opts.budget) : undefined;
      type Kind = 'conformance' | 'chaos' | 'load' | 'explore' | 'races';
      const kinds: Kind[] =
        opts.for === 'certify' ? ['conformance', 'chaos', 'load', ...(opts.depth === 'full' ? (['explore'] as const) : []), 'races'] : [opts.for as Kind];
      const plan = await planRun(profile, {
        kinds: [...kinds],
        depth: opts.depth,
        service: opts.service,
        grep: opts.grep,
        roundTrip: planRoundTrip(profile, rtt),
        ...(exploreBudget !== undefined ? { exploreBudget } : {}),
        ...(raceBudget !== undefined ? { raceBudget } : {}),
        ...(opts.for === 'certify' ? { raceInCertify: true } : {}),
      });
      if (opts.json) process.stdout.write(JSON.stringify(plan, null, 2) + '\n');
      else process.stdout.write(formatPlan(plan).join('\n') + '\n');
    },
  );

program
  .command('doctor')
  .description('check that a profile is right about its target: base URLs, keys, triggers, the webhook receiver; what each unlocks')
  .option('--profile <file>', 'target profile (default: start the embedded reference target)')
  .addOption(new Option('--depth <depth>', 'quick or full').choices(['quick', 'full']).default('quick'))
  .option('--json', 'print the table as JSON')
  .option('--include-load-keys', 'also present the keys reserved for load (their rate windows then hold one request each)')
  .action(async (opts: { profile?: string; depth: 'quick' | 'full'; json?: boolean; includeLoadKeys?: boolean }) => {
    const { resolveTarget } = await import('./target.js');
    const { runDoctor, formatDoctor } = await import('../doctor/doctor.js');
    const { registerProfileSecrets } = await import('./run.js');
    const target = await resolveTarget({ profile: opts.profile });
    try {
      registerProfileSecrets(target.profile);
      const report = await runDoctor(target.profile, { depth: opts.depth, includeLoadKeys: opts.includeLoadKeys });
      process.stdout.write(redact(opts.json ? JSON.stringify(report, null, 2) : formatDoctor(report)) + '\n');
      process.exitCode = report.usable ? EXIT.ok : EXIT.usage;
    } finally {
      await target.close();
    }
  });

program
  .command('spec-map')
  .description(
    'every sentence, list item and table row of both specs: tested (by which requirements), partial, not shown, not testable, or unaccounted; and the open points the specs leave to the target, each with its choices',
  )
  .option('--json', 'print the counts per spec, each partial passage with its reasons, what stays untestable and the open points as JSON')
  .option('--html <file>', 'write the highlighted specs as one HTML page')
  .action(async (opts: { json?: boolean; html?: string }) => {
    const { buildSpecMap, formatSpecMap, specMapHtml, specMapJson, SPEC_MAP_CSS } = await import('../report/specMap.js');
    const map = buildSpecMap();
    if (opts.json) process.stdout.write(JSON.stringify(specMapJson(map)) + '\n');
    else process.stdout.write(formatSpecMap(map) + '\n');
    if (opts.html) {
      const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>rampart spec map</title><style>body{font:14px/1.5 system-ui,sans-serif;max-width:1100px;margin:0 auto;padding:16px}table{border-collapse:collapse;width:100%}td,th{border:1px solid #d8dee4;padding:3px 6px;text-align:left;vertical-align:top}code{font:12px ui-monospace,monospace}${SPEC_MAP_CSS}</style></head><body><h1>Spec coverage map</h1><h2>Gate</h2>${specMapHtml(map, 'gate')}<h2>Pools</h2>${specMapHtml(map, 'pools')}</body></html>`;
      writeFileSync(opts.html, page);
      process.stdout.write(`wrote ${opts.html}\n`);
    }
  });

program
  .command('serve')
  .description('run the embedded reference target (both services)')
  .option('--profile <file>', "profile to build the world from (default: rampart's own fixtures/profiles/embedded.json)")
  .option('--fault <name...>', 'seeded faults to switch on')
  .option('--list-faults', 'list the seeded faults and exit')
  .option('--write-profile <file>', 'write the running profile (its URLs and the live keys the target issued) for a harness in another process')
  .option(
    '--dialect <seed>',
    'a world that reads the specs its own way: one choice per open point (rampart spec-map lists them) drawn from the seed, or "everywhere" (every point other than the reference\'s own)',
  )
  .action(async (opts: { profile?: string; fault?: string[]; listFaults?: boolean; writeProfile?: string; dialect?: string }) => {
    const { ALL_FAULTS } = await import('../reference/faults.js');
    if (opts.listFaults) {
      for (const f of ALL_FAULTS) process.stdout.write(`${f.name}\t${f.service}\t${f.requirements.join(',')}\t${f.description}\n`);
      process.stdout.write(`${ALL_FAULTS.length} faults\n`);
      return;
    }
    const { loadProfile } = await import('../profile/load.js');
    const { EMBEDDED_PROFILE } = await import('./target.js');
    const { startReference } = await import('../reference/server.js');
    let profile = loadProfile(opts.profile ?? EMBEDDED_PROFILE);
    if (opts.dialect !== undefined) {
      const { dialectOf, dialectProfile } = await import('../reference/dialect.js');
      try {
        profile = dialectProfile(profile, dialectOf(opts.dialect), `${profile.name} (dialect ${opts.dialect})`);
      } catch (e) {
        throw new RunError((e as Error).message.split('\n')[0]!, EXIT.usage);
      }
    }
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
        (issued.length
          ? `  live keys issued to ${issued.join(', ')}${opts.writeProfile ? '' : ' (pass --write-profile FILE to hand them to a harness)'}\n`
          : '') +
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

// Evidence commands: OpenAPI export, signing keys, certificate verification.
(await import('./commands/openapi.js')).registerOpenApi(program);
(await import('./commands/keys.js')).registerKeys(program);
(await import('./commands/verify.js')).registerVerify(program);
registerSetup(program);
(await import('./commands/history.js')).registerHistory(program);

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
