// fixtures/profile.schema.json is generated from the zod profile schema; a
// stale copy would autocomplete fields the loader rejects.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILE_SCHEMA_FILE, profileJsonSchema } from '../scripts/gen-profile-schema.js';

describe('profile JSON Schema', () => {
  it('the committed fixtures/profile.schema.json matches the zod schema (regenerate: npx tsx scripts/gen-profile-schema.ts)', () => {
    expect(readFileSync(PROFILE_SCHEMA_FILE, 'utf8')).toBe(profileJsonSchema());
  });
  it('documents every top-level section and rejects unknown properties', () => {
    const schema = JSON.parse(profileJsonSchema());
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['name', 'gate', 'pools', 'webhooks', 'timing', 'tolerances', 'reference']));
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'gate']));
  });
});
