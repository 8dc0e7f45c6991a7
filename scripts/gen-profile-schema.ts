// Writes fixtures/profile.schema.json from the zod profile schema so editors
// autocomplete profiles. `--check` exits 1 when the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { Profile } from '../src/profile/schema.js';

export const PROFILE_SCHEMA_FILE = 'fixtures/profile.schema.json';

export function profileJsonSchema(): string {
  const schema = z.toJSONSchema(Profile, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return JSON.stringify({ ...schema, title: 'rampart target profile', $id: 'https://rampart.dev/profile.schema.json' }, null, 2) + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = profileJsonSchema();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(PROFILE_SCHEMA_FILE, 'utf8');
    } catch {
      /* missing counts as stale */
    }
    if (current !== text) {
      console.error(`${PROFILE_SCHEMA_FILE} is stale: run npx tsx scripts/gen-profile-schema.ts`);
      process.exit(1);
    }
  } else {
    writeFileSync(PROFILE_SCHEMA_FILE, text);
    console.log(`wrote ${PROFILE_SCHEMA_FILE}`);
  }
}
