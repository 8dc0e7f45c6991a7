// rampart openapi --service gate|pools [--out FILE]: the spec model as an OpenAPI 3.1 document.
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { buildOpenApi } from '../../openapi/build.js';
import { EXIT, RunError } from '../../exitCodes.js';

export function registerOpenApi(program: Command): void {
  program
    .command('openapi')
    .description('write the spec model of one service as an OpenAPI 3.1 document (stdout without --out)')
    .addOption(new Option('--service <service>', 'gate or pools').choices(['gate', 'pools']).makeOptionMandatory())
    .option('--out <file>', 'write the document to this file')
    // Usage errors reach main's handler (exit 2) instead of commander's own exit 1.
    .exitOverride()
    .action((opts: { service: 'gate' | 'pools'; out?: string }) => {
      const doc = buildOpenApi(opts.service);
      const text = JSON.stringify(doc, null, 2) + '\n';
      if (!opts.out) {
        process.stdout.write(text);
        return;
      }
      try {
        writeFileSync(opts.out, text);
      } catch (e) {
        throw new RunError(
          `cannot write ${opts.out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}) — choose a writable --out path`,
          EXIT.usage,
        );
      }
      const ops = Object.values(doc.paths).reduce((n, p) => n + Object.keys(p).length, 0);
      process.stdout.write(
        `openapi: ${opts.out} (${opts.service}, OpenAPI ${doc.openapi}, spec ${doc.info.version}: ${ops} operations, ${Object.keys(doc.components.schemas).length} schemas)\n`,
      );
    });
}
