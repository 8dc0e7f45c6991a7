// A small line diff of a failure's expected and actual text for report.html.
// Expected and actual are short (a status, a field, a body cut to a few hundred
// characters), so a plain LCS table is enough and keeps the page self-contained.

export type DiffLine = { op: 'same' | 'del' | 'add'; text: string };

/** Lines compared at most per side; beyond that the texts are shown whole, one removed and one added. */
const MAX_LINES = 400;

/**
 * "409" stays "409"; JSON is pretty-printed; "200 {json}" becomes the status on
 * its own line and the body (pretty-printed when it parses), so a line diff
 * lands on the status and on the fields.
 */
export function diffable(text: string): string {
  const t = text.trim();
  const m = /^([1-5]\d\d)\s+([[{][\s\S]*)$/.exec(t);
  const [head, body] = m ? [m[1]!, m[2]!] : ['', t];
  let shown = body;
  if (/^[[{]/.test(body)) {
    try {
      shown = JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      // Not JSON (or cut short): compared as written.
    }
  }
  if (!head && shown === body) return text;
  return head ? `${head}\n${shown}` : shown;
}

/** The lines of a and b as kept, removed (in a only) and added (in b only), in order. */
export function lineDiff(a: string, b: string): DiffLine[] {
  const x = a.split('\n');
  const y = b.split('\n');
  if (x.length > MAX_LINES || y.length > MAX_LINES)
    return [...x.map((text) => ({ op: 'del' as const, text })), ...y.map((text) => ({ op: 'add' as const, text }))];
  // lcs[i][j]: length of the longest common subsequence of x[i..] and y[j..].
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      out.push({ op: 'same', text: x[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: 'del', text: x[i++]! });
    else out.push({ op: 'add', text: y[j++]! });
  }
  while (i < x.length) out.push({ op: 'del', text: x[i++]! });
  while (j < y.length) out.push({ op: 'add', text: y[j++]! });
  return out;
}

/** Where two lines differ: the common prefix and suffix, and the middle of each. */
export function changedSpan(a: string, b: string): { prefix: string; a: string; b: string; suffix: string } {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return { prefix: a.slice(0, p), a: a.slice(p, a.length - s), b: b.slice(p, b.length - s), suffix: a.slice(a.length - s) };
}
