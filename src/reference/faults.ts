// Every seeded fault of the embedded target (both services). Names are unique:
// `rampart serve --fault NAME` and the self-tests select them by name.
import type { FaultDef } from './kit/faults.js';
import { GATE_FAULTS } from './gate/index.js';
import { POOLS_FAULTS } from './pools/index.js';
import { NIGHT_FAULTS } from './nightFaults.js';

function checkUnique(defs: FaultDef[]): FaultDef[] {
  const seen = new Set<string>();
  for (const f of defs) {
    if (seen.has(f.name)) throw new Error(`duplicate seeded fault name: ${f.name}`);
    seen.add(f.name);
  }
  return defs;
}

export const ALL_FAULTS: FaultDef[] = checkUnique([...GATE_FAULTS, ...POOLS_FAULTS, ...NIGHT_FAULTS]);
