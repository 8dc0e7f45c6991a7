// A k6 check tagged with the requirement it proves. k6's summary counts
// passes and fails per check name but not per tag, so a failure also leaves
// a record naming the requirement (and what was seen): rampart's failure
// message then lists the checks of that requirement only.
import { check } from 'k6';
import { emit } from './emit.ts';

export function checkReq<T>(req: string, value: T, name: string, ok: (v: T) => boolean, seen?: (v: T) => unknown): boolean {
  const passed = check(value, { [name]: ok }, { req });
  if (!passed) emit({ kind: 'failedCheck', req, name, ...(seen ? { seen: seen(value) } : {}) });
  return passed;
}
