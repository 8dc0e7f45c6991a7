// Test support: fast-check arbitraries for the JSON Schemas of rampart's
// OpenAPI export, so a property test can send what the export calls valid.
// Only what the export uses: $ref, allOf/anyOf/oneOf, const, enum, type
// (and type arrays), string pattern/format/length, integer and number bounds,
// arrays, objects with properties, required, additionalProperties; `{}` is any
// JSON value, and `not: {}` (a field that must be absent) is never generated.
import fc from 'fast-check';
import { toChecksumAddress } from '../../src/model/eip55.js';

type Json = Record<string, any>;

const isNever = (s: unknown) => !!s && typeof s === 'object' && 'not' in (s as Json) && Object.keys((s as Json).not).length === 0;

const anyJson = () => fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

/** Strings of a format the export names. */
function formatted(format: string): fc.Arbitrary<string> | undefined {
  switch (format) {
    case 'uri':
      return fc.webUrl({ withQueryParameters: true, withFragments: true });
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .chain((d) => fc.constantFrom(d.toISOString(), d.toISOString().replace('Z', '+00:00'), d.toISOString().replace(/\.\d+Z$/, 'Z')));
    case 'evm-address':
      // All-lowercase, all-uppercase, or mixed case that passes EIP-55: every form the spec calls valid.
      return fc.stringMatching(/^[0-9a-f]{40}$/).chain((hex) => fc.constantFrom(`0x${hex}`, `0x${hex.toUpperCase()}`, toChecksumAddress(`0x${hex}`)));
    default:
      return undefined;
  }
}

function stringOf(s: Json): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength;
  const base: fc.Arbitrary<string> =
    (s.format && formatted(s.format)) ?? (s.pattern ? fc.stringMatching(new RegExp(s.pattern)) : fc.string({ minLength: min, maxLength: max ?? 24 }));
  return base.filter((v: string) => v.length >= min && (max === undefined || v.length <= max) && (!s.pattern || new RegExp(s.pattern).test(v)));
}

export function arbitraryOf(schema: Json | boolean, root: Json, depth = 0): fc.Arbitrary<unknown> {
  if (schema === true || (typeof schema === 'object' && Object.keys(schema).filter((k) => k !== 'description' && k !== 'default').length === 0))
    return anyJson();
  if (schema === false) throw new Error('no value satisfies the schema false');
  const s = schema as Json;
  if (typeof s.$ref === 'string') {
    const target = s.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: Json, k: string) => o?.[k], root);
    return arbitraryOf(target, root, depth);
  }
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(s[key])) return fc.oneof(...s[key].map((b: Json) => arbitraryOf(b, root, depth)));
  if (Array.isArray(s.allOf)) return arbitraryOf(Object.assign({}, ...s.allOf), root, depth);
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t: string) => arbitraryOf({ ...s, type: t }, root, depth)));
  switch (s.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringOf(s);
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(s.items ? arbitraryOf(s.items, root, depth + 1) : anyJson(), { maxLength: 3 });
    case 'object':
      return objectOf(s, root, depth);
    default:
      return anyJson();
  }
}

function objectOf(s: Json, root: Json, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries((s.properties ?? {}) as Record<string, Json>).filter(([, p]) => !isNever(p));
  const required = new Set<string>(s.required ?? []);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, p] of props) shape[k] = arbitraryOf(p, root, depth + 1);
  const known = fc.record(shape, { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) });
  const extra = s.additionalProperties;
  if (extra === false || depth > 3) return known;
  // Open objects: a few keys the schema does not name, of the type additionalProperties gives (any when absent).
  const named = new Set(Object.keys(s.properties ?? {}));
  const valueOf = extra && typeof extra === 'object' ? arbitraryOf(extra, root, depth + 1) : anyJson();
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !named.has(k) && k !== '__proto__'),
    valueOf,
    { maxKeys: named.size ? 2 : 4 },
  );
  return fc.tuple(known, extras).map(([a, b]) => ({ ...b, ...a }));
}
