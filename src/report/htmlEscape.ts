// Text helpers shared by the parts of report.html: every value from a run is
// escaped on its way into the page (targets control the bodies we show).

export function esc(v: unknown): string {
  return String(v ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}

/** A value as one line of text: strings as they are, anything else as JSON. */
export function show(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

export const NO_DATA = '<p class="nodata">no data in this run</p>';
