// rampart keys generate --out DIR: the Ed25519 pair a partner signs certificates with.
import { generateKeyPairSync, createPublicKey } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { publicKeyFingerprint } from '../../report/certificate.js';
import { gitStatusOf } from '../../report/gitTracked.js';
import { EXIT, RunError } from '../../exitCodes.js';

export const PRIVATE_KEY_FILE = 'certify.key';
export const PUBLIC_KEY_FILE = 'certify.pub';

export function generateSigningKeys(dir: string, opts: { force?: boolean } = {}): { keyFile: string; pubFile: string; fingerprint: string; warning?: string } {
  const where = gitStatusOf(dir);
  if (where === 'tracked' || where === 'untracked')
    throw new RunError(
      `${dir} is inside a git work tree and not ignored: a private key there could be committed — choose a directory outside the repository (e.g. --out ~/.rampart)`,
      EXIT.usage,
    );
  const keyFile = join(dir, PRIVATE_KEY_FILE);
  const pubFile = join(dir, PUBLIC_KEY_FILE);
  if (!opts.force)
    for (const f of [keyFile, pubFile])
      if (existsSync(f))
        throw new RunError(`${f} already exists — pass --force to replace it (certificates signed with the old key then need the old certify.pub)`, EXIT.usage);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(keyFile, privateKey, { mode: 0o600 });
    // mode applies only when the file is created: a replaced key gets it here.
    chmodSync(keyFile, 0o600);
    writeFileSync(pubFile, publicKey, { mode: 0o644 });
  } catch (e) {
    throw new RunError(
      `cannot write the key pair to ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}) — choose a writable --out directory`,
      EXIT.usage,
    );
  }
  return {
    keyFile,
    pubFile,
    fingerprint: publicKeyFingerprint(createPublicKey(publicKey)),
    warning:
      where === 'ignored' ? `${dir} is inside a git work tree (ignored by .gitignore): keep the private key out of shared copies and backups` : undefined,
  };
}

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('signing keys for certificates').exitOverride();
  keys
    .command('generate')
    .description('write DIR/certify.key (Ed25519 private key, mode 0600) and DIR/certify.pub')
    .requiredOption('--out <dir>', 'directory for the key pair (outside the repository)')
    .option('--force', 'replace an existing key pair')
    .exitOverride()
    .action((opts: { out: string; force?: boolean }) => {
      const r = generateSigningKeys(opts.out, { force: opts.force });
      if (r.warning) process.stderr.write(`rampart: warning: ${r.warning}\n`);
      process.stdout.write(
        `keys: ${r.keyFile} (private, mode 0600: keep it secret, pass it to rampart certify --sign-key)\nkeys: ${r.pubFile} (public, ${r.fingerprint}: hand it to whoever verifies)\n`,
      );
    });
}
