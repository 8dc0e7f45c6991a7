// Reading a profile file: ${ENV_VAR} substitution, then schema validation.
// Every problem becomes a ProfileError whose message is one line naming the
// file, the field path and what to do.
import { readCaFile } from '../client/transport.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Profile } from './schema.js';

export class ProfileError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'ProfileError';
  }
}

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

// Which environment variable each secret came from, so a reproduction command can say
// ${GATE_SK_1} instead of the key. Values stay in memory; only names are ever printed.
const SECRET_FIELDS = new Set([
  'secretKey',
  'publishableKey',
  'liveSecretKey',
  'livePublishableKey',
  'revokedSecretKey',
  'revokedPublishableKey',
  'extraSecretKeys',
  'webhookSecret',
]);
const SECRET_ENV = new Map<string, string>();
const WHOLE_ENV_REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** The variable a profile secret was read from (`"secretKey": "${GATE_SK_1}"`), or undefined when the profile holds it literally. */
export function envVarForSecret(value: string): string | undefined {
  return SECRET_ENV.get(value);
}

/** Every secret value read from a variable, with the variable's name (longest value first). Never print the values. */
export function secretEnvRefs(): { value: string; name: string }[] {
  return [...SECRET_ENV].map(([value, name]) => ({ value, name })).sort((a, b) => b.value.length - a.value.length);
}

/** Replace ${VAR} in every string of a parsed JSON value; collect the names that are unset. */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv, missing: Set<string>, path = ''): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_ENV_REF.exec(value)?.[1];
    // An item of a list of secrets (extraSecretKeys/0) is named by its list.
    const owner = path.replace(/\/\d+$/, '');
    const field = owner.slice(owner.lastIndexOf('/') + 1);
    if (whole && SECRET_FIELDS.has(field) && env[whole]) SECRET_ENV.set(env[whole]!, whole);
    return value.replace(ENV_REF, (_m, name: string) => {
      const v = env[name];
      if (v === undefined || v === '') {
        missing.add(`${name} (at ${path || '/'})`);
        return '';
      }
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => substituteEnv(v, env, missing, `${path}/${i}`));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === '$comment' ? v : substituteEnv(v, env, missing, `${path}/${k}`);
    return out;
  }
  return value;
}

/** Validate an already-parsed profile object. */
export function parseProfile(raw: unknown, source = 'profile', env: NodeJS.ProcessEnv = process.env): Profile {
  const missing = new Set<string>();
  const substituted = substituteEnv(raw, env, missing);
  if (missing.size > 0) {
    throw new ProfileError(
      `${source}: environment variable${missing.size > 1 ? 's' : ''} not set: ${[...missing].join(', ')} — export ${missing.size > 1 ? 'them' : 'it'} or edit the profile`,
    );
  }
  const result = Profile.safeParse(substituted);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.length ? '/' + i.path.join('/') : '/'}: ${i.message}`);
    throw new ProfileError(`${source}: invalid profile — ${problems.join('; ')} (see fixtures/profile.schema.json)`);
  }
  // A CA file that cannot be read is a profile error now, not a TLS failure an hour into the run.
  const caFile = result.data.harness.caFile;
  if (caFile) {
    try {
      readCaFile(caFile);
    } catch (e) {
      throw new ProfileError(`${source}: ${(e as Error).message}`);
    }
  }
  return result.data;
}

export function loadProfile(file: string, env: NodeJS.ProcessEnv = process.env): Profile {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ProfileError(`${file}: cannot read the profile (${code ?? (e as Error).message}) — check the --profile path`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ProfileError(`${file}: not valid JSON (${(e as Error).message}) — fix the file or regenerate it from fixtures/profiles/sandbox.example.json`);
  }
  return parseProfile(raw, file, env);
}
