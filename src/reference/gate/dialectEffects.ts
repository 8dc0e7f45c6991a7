// What a world's choice at an open point of the gate side changes in its profile besides reference.dialect (a knob
// of the reference, a value the profile then declares, a template): see src/reference/dialect.ts.
import type { OpenPointId } from '../../model/openPoints/index.js';
import type { WorldEffect } from '../kit/dialect.js';

export const GATE_WORLD_EFFECTS: Partial<Record<OpenPointId, WorldEffect>> = {};
