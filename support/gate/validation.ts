// Error cases one request proves together (Errors: "validation errors joined with `; `"): a body carrying
// several invalid fields at once, refused with 400 invalid_request, whose message parts each name exactly one
// of them, proves every field so named refused on its own. The spec does not say every failing field is
// reported, nor how a message words it: a field the answer does not name that way is sent alone, as before,
// so no target is failed for reporting less, and no field passes on another field's refusal.
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

/** Which of the fields a message part names, as whole words. */
function named(part: string, fields: readonly string[]): string[] {
  const words = new Set(part.split(/[^A-Za-z0-9_]+/));
  return fields.filter((f) => words.has(f) || words.has(camel(f)));
}

/**
 * Send `base` with every invalid field at once; each field its 400's message names in a part of its own is
 * proven refused. The rest are sent one at a time (each must give 400 invalid_request). Returns the
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
  const together = await send(merge(...cases.map((c) => c.body)));
  // Any one of the fields is refused with 400 on its own: a body carrying all of them is too.
  t.expect.error(together, 400, 'invalid_request', { requirement: cases[0]!.requirement });
  const message: string = typeof together.json?.message === 'string' ? together.json.message : '';
  const fields = cases.map((c) => c.field);
  const proven = new Set(
    message
      .split('; ')
      .map((part) => named(part, fields))
      .filter((n) => n.length === 1)
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
