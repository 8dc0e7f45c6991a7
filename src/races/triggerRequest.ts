// A sandbox trigger as one request of a burst (a completion beside a cancel): the side's own template (the target's
// from its profile, the oracle's the reference's), filled in the sandbox's own words. A template that arms the
// sandbox with requests of its own first, or that names an absolute URL, is not one request: the race cannot put it
// beside another, and the family is skipped with the reason.
import { fill, fillDeep, inSandboxWords } from '../needs/support/triggers.js';
import type { RequestTemplate } from '../profile/schema.js';
import { CheckSkipped } from '../runner/expect.js';
import type { BurstRequest } from './family.js';
import type { RaceSide, Service } from './side.js';

export function triggerRequest(side: RaceSide, service: Service, name: string, vars: Record<string, string>, label: string): BurstRequest {
  const triggers = (service === 'gate' ? side.profile.gate.triggers : (side.profile.pools?.triggers ?? {})) as Record<string, RequestTemplate | undefined>;
  const tpl = triggers[name];
  const skip = (why: string): never => {
    if (side.name === 'oracle') throw new Error(`the races oracle's ${name} template ${why}`);
    throw new CheckSkipped(`${service}.triggers.${name} ${why}: the race needs it as one request beside the others`);
  };
  if (!tpl) return skip('is missing');
  if (tpl.arm?.length) return skip('arms the sandbox with requests of its own first');
  const filled = inSandboxWords(vars, tpl.values);
  const path = fill(tpl.path, filled);
  if (/^https?:\/\//i.test(path)) return skip('names an absolute URL');
  return {
    service: tpl.base ?? service,
    label,
    request: {
      method: tpl.method,
      path,
      ...(tpl.body !== undefined ? { body: fillDeep(tpl.body, filled) } : {}),
      ...(tpl.headers ? { headers: fillDeep(tpl.headers, filled) as Record<string, string> } : {}),
      ...(tpl.auth === 'none' ? { auth: 'none' as const } : {}),
    },
  };
}
