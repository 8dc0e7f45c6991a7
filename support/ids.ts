// Ids shaped like one the target issued, naming nothing. "Well-formed" is the
// target's business (the specs fix no id format), so a well-formed unknown id
// is derived from a real one: same prefix, same length, a character swapped
// for another of the same kind (digit, lower or upper case letter) that the
// id itself uses, so it stays in the id's own alphabet. Swaps go from the end
// (the random or counting part of every common format: UUID, ULID, prefixed
// random ids) towards the front; each candidate may still name an object (a
// counting id), so callers try them in order and skip those that exist.

const kindOf = (c: string) => (/[0-9]/.test(c) ? 'digit' : /[a-z]/.test(c) ? 'lower' : /[A-Z]/.test(c) ? 'upper' : undefined);

/** Up to `max` ids like `id` (same length, prefix and alphabet), each differing from it in one trailing character. */
export function wellFormedUnknownIds(id: string, max = 6, positions = 4): string[] {
  const chars = [...id];
  const out: string[] = [];
  let tried = 0;
  for (let i = chars.length - 1; i >= 0 && tried < positions && out.length < max; i--) {
    const kind = kindOf(chars[i]!);
    if (!kind) continue;
    tried++;
    const same = [...new Set(chars.filter((c) => kindOf(c) === kind && c !== chars[i]))];
    for (const c of same) {
      if (out.length >= max) break;
      out.push(chars.map((x, j) => (j === i ? c : x)).join(''));
    }
  }
  return out;
}
