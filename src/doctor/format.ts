// What the doctor reports, and its table as text: one row per role, trigger or
// need, what it unlocks and what to add; the last line says how complete the
// certificate can be. The report's type lives here, with its format, so the
// doctor (src/doctor/doctor.ts) imports the format and never the other way.
import { describeTargetClock, type TargetClockReport } from '../wire/targetTime.js';
import type { DoctorRow, RowArea, RowStatus } from './context.js';

export interface DoctorReport {
  profile: string;
  depth: 'quick' | 'full';
  rows: DoctorRow[];
  /** No row is broken: a run can use what the profile declares. */
  usable: boolean;
  /** Requirements (conformance and chaos, in scope at this depth) whose every check can run with what works, out of all in scope. */
  verifiable: { requirements: number; of: number };
  /** Each target's clock against rampart's and the round trip, from the doctor's own answers. */
  target: { gate: TargetClockReport; pools: TargetClockReport };
}

const ICON: Record<RowStatus, string> = { ok: '✓', missing: '-', broken: '✗', 'not checked': '·' };
const HEADING: Record<RowArea, string> = {
  'base URL': 'base URLs',
  key: 'keys and partner traits',
  trigger: 'triggers',
  webhooks: 'webhook receiver',
  need: 'needs',
};

export function formatDoctor(d: DoctorReport): string {
  const lines = [`rampart doctor — profile ${d.profile} (--depth ${d.depth})`, ''];
  const w = Math.min(60, Math.max(...d.rows.map((r) => r.name.length)));
  for (const area of ['base URL', 'key', 'trigger', 'webhooks', 'need'] as const) {
    const rs = d.rows.filter((r) => r.area === area);
    if (!rs.length) continue;
    lines.push(`${HEADING[area]}:`);
    for (const r of rs) {
      const unl = r.unlocks ? ` [unlocks ${r.unlocks} check${r.unlocks === 1 ? '' : 's'}]` : '';
      lines.push(`  ${ICON[r.status]} ${r.name.padEnd(w)}  ${r.status.padEnd(11)} ${r.detail}${unl}`);
      if (r.fix && r.status !== 'ok' && r.fix !== r.detail) lines.push(`      → ${r.fix}`);
    }
  }
  const broken = d.rows.filter((r) => r.status === 'broken' && r.area !== 'need').length;
  const lost = d.rows.filter((r) => r.status === 'broken' && r.area === 'need').length;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  lines.push(
    '',
    d.usable
      ? 'usable: nothing declared is broken'
      : `NOT usable: ${plural(broken, 'row')} broken (✗)${lost ? `, ${plural(lost, 'need')} lost with them` : ''} — fix them before a run`,
  );
  lines.push('', describeTargetClock(d.target));
  lines.push(`this profile can verify ${d.verifiable.requirements} of ${d.verifiable.of} requirements (conformance and chaos, --depth ${d.depth})`);
  return lines.join('\n');
}
