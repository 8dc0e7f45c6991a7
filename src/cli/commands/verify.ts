// rampart verify CERT --pub KEY: is this bundle what was signed, and what did it certify?
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadPublicKey, SigningKeyError, verifyCertificate, type Certificate } from '../../report/certificate.js';
import { EXIT, RunError } from '../../exitCodes.js';

/** What was certified, for people: a few lines. */
export function describeCertificate(c: Certificate): string {
  const urls = Object.entries(c.profile.baseUrls ?? {})
    .filter(([, u]) => u)
    .map(([k, u]) => `${k} ${u}`)
    .join(', ');
  const partners = [...c.profile.partners.gate.map((p) => `gate:${p}`), ...c.profile.partners.pools.map((p) => `pools:${p}`)].join(', ');
  const scales = c.timeScales ? `retry scale ${c.timeScales.retryScale}, rate window scale ${c.timeScales.rateWindowScale}` : 'time scales not recorded';
  const s = c.summary;
  return [
    `verdict: ${c.verdict.label} — ${c.verdict.detail}`,
    `requirements: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.notCovered} not covered`,
    `profile: ${c.profile.name}${urls ? ` (${urls})` : ''}${partners ? `; partners ${partners}` : ''}`,
    `run: ${c.run.command} ${c.run.runId}, depth ${c.run.depth}, ${scales}, ${c.run.startedAt} → ${c.run.finishedAt}`,
    ...(c.gates
      ? [
          `gates: ${c.gates.file} (sha256 ${c.gates.sha256.slice(0, 12)}…)${c.gates.looser.length ? `, looser than rampart's defaults: ${c.gates.looser.join('; ')}` : ", rampart's defaults or stricter"}`,
        ]
      : []),
    `versions: rampart ${c.rampart.version}, catalogue sha256:${c.catalogue.sha256.slice(0, 16)}… (${c.catalogue.requirements} requirements), specs gate ${c.specVersions.gate} / pools ${c.specVersions.pools}, k6 ${c.tools.k6 ?? 'n/a'}, toxiproxy ${c.tools.toxiproxy ?? 'n/a'}`,
  ].join('\n');
}

export function registerVerify(program: Command): void {
  program
    .command('verify <certificate>')
    .description("check a run's certificate.json: signature and every report file's hash (exit 0 valid, 1 not)")
    .requiredOption('--pub <file>', "the signer's public key (certify.pub)")
    .exitOverride()
    .action((file: string, opts: { pub: string }) => {
      try {
        readFileSync(file);
      } catch (e) {
        throw new RunError(
          `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}) — pass the certificate.json of a run directory`,
          EXIT.usage,
        );
      }
      let pub;
      try {
        pub = loadPublicKey(opts.pub);
      } catch (e) {
        if (e instanceof SigningKeyError) throw new RunError(e.message, EXIT.usage);
        throw e;
      }
      const r = verifyCertificate(file, pub);
      if (!r.ok) {
        process.stdout.write(`invalid: ${r.reason}\n`);
        process.exitCode = EXIT.checkFailed;
        return;
      }
      process.stdout.write(`valid: ${r.reason}\n${describeCertificate(r.certificate)}\n`);
    });
}
