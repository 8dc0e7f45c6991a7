// `rampart setup`: the pinned k6 and Toxiproxy into the per-user tools cache
// (src/tools/setup.ts), and `rampart --version`: rampart's version and, per
// pinned tool, whether it is there and where.
import type { Command } from 'commander';
import { EXIT, RunError } from '../../exitCodes.js';
import { PACKAGE_VERSION } from '../../packageRoot.js';
import { toolInventory, toolsCacheDir } from '../../tools/pinned.js';

export function registerSetup(program: Command): void {
  program
    .command('setup')
    .description('put the pinned k6 and Toxiproxy into the per-user tools cache ($XDG_CACHE_HOME or ~/.cache, rampart/tools): found, linked or built once')
    .action(async () => {
      if (process.env.RAMPART_SKIP_TOOLS === '1') {
        process.stdout.write('setup: RAMPART_SKIP_TOOLS=1: not building k6 and toxiproxy (load and chaos suites will be skipped)\n');
        return;
      }
      const { formatSetup, setupTools, SetupError } = await import('../../tools/setup.js');
      try {
        const done = setupTools({ log: (l) => process.stderr.write(`setup: ${l}\n`) });
        process.stdout.write(formatSetup(done).join('\n') + '\n');
      } catch (e) {
        if (e instanceof SetupError) throw new RunError(e.message, EXIT.usage);
        throw e;
      }
    });
}

/** What `rampart --version` prints: rampart's version, then each pinned tool, found (where) or not. */
export function versionLines(env: NodeJS.ProcessEnv = process.env): string[] {
  return [
    `rampart ${PACKAGE_VERSION}`,
    ...toolInventory(env).map(
      (t) => `${t.binary} ${t.version} (pinned): ${t.path ?? `not found — run \`npx rampart setup\` (tools cache: ${toolsCacheDir(env)})`}`,
    ),
    `node ${process.version}`,
  ];
}
