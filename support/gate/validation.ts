// Error cases one request proves together (Errors: "validation errors joined with `; `"): a body carrying
// several invalid fields at once, refused with 400 invalid_request, proves refused every field that some "; "-part
// of its message names alone — a part that names no other field of the body sent, so it cannot mean another field.
// The spec does not say every failing field is reported, nor how a message words it, nor how many parts one field
// adds: a part may name two fields (it then proves neither), a field may add several parts (one that names it alone
// proves it). A field no part names alone is sent alone, so no target is failed for wording it otherwise or
// reporting less, and no field passes on another field's refusal.
import type { Exchange } from '../../src/client/types.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';

/** One invalid field: what it adds to (or takes from) a valid body, and the rule its refusal proves. */
export interface InvalidField {
  /** The field the message part must name (snake_case; its camelCase spelling is accepted too). */
  field: string;
  /** Its part of the body: the invalid value, or undefined to leave the field out. */
  body: Record<string, unknown>;
  requirement: RequirementId;
}

const camel = (f: string) => f.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Which of the known fields a message part names, as whole words: its snake_case, camelCase or spaced spelling
 * ("first_name", "firstName", "first name"). Longer names are taken first and taken out of the part, so a field
 * whose name holds another's ("first_name" holds "name") never counts as that other one.
 */
function named(part: string, known: readonly string[]): string[] {
  let rest = part;
  const found: string[] = [];
  for (const f of [...new Set(known)].sort((a, b) => b.length - a.length)) {
    const forms = [...new Set([f, camel(f), f.replace(/_/g, ' ')])].map(escape).join('|');
    const re = new RegExp(`(^|[^A-Za-z0-9_])(${forms})(?=[^A-Za-z0-9_]|$)`, 'gi');
    if (re.test(rest)) {
      found.push(f);
      rest = rest.replace(re, '$1\u0000');
    }
  }
  return found;
}

/**
 * Send `base` with every invalid field at once; each field a part of its 400's message names alone (no other field
 * of the body sent, nor another case's) is proven refused. The rest are sent one at a time (each must give 400 invalid_request). Returns the
 * exchanges sent, the combined one first.
 */
export async function refusedTogether(
  t: CheckTools,
  send: (body: Record<string, unknown>) => Promise<Exchange>,
  base: Record<string, unknown>,
  cases: readonly InvalidField[],
): Promise<Exchange[]> {
  const merge = (...parts: Record<string, unknown>[]) => {
    const body: Record<string, unknown> = { ...base };
    for (const p of parts)
      for (const [k, v] of Object.entries(p))
        if (v === undefined) delete body[k];
        else body[k] = v;
    return body;
  };
  const combined = merge(...cases.map((c) => c.body));
  const together = await send(combined);
  // Any one of the fields is refused with 400 on its own: a body carrying all of them is too.
  t.expect.error(together, 400, 'invalid_request', { requirement: cases[0]!.requirement });
  const message: string = typeof together.json?.message === 'string' ? together.json.message : '';
  const fields = cases.map((c) => c.field);
  // Every field the body sent or the cases name: a part naming one of them besides a case's field may mean the other.
  const known = [...fields, ...Object.keys(base), ...Object.keys(combined)];
  const proven = new Set(
    message
      .split('; ')
      .map((part) => named(part, known))
      .filter((n) => n.length === 1 && fields.includes(n[0]!))
      .map((n) => n[0]!),
  );
  const alone = cases.filter((c) => !proven.has(c.field));
  t.observe(
    'gate-validation-fields-in-one-answer',
    { fields: fields.length, namedInOneAnswer: proven.size, sentAlone: alone.map((c) => c.field) },
    'validation errors joined with "; ": the fields one 400 named each in a part of its own, and those sent alone',
  );
  const sent = [together];
  for (const c of alone) {
    const ex = await send(merge(c.body));
    t.expect.error(ex, 400, 'invalid_request', { requirement: c.requirement });
    sent.push(ex);
  }
  return sent;
}
