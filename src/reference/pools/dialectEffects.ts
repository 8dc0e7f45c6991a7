// What a world's choice at an open point of the pools side changes in its profile besides reference.dialect (a knob
// of the reference, a value the profile then declares, a template): see src/reference/dialect.ts.
import type { OpenPointId } from '../../model/openPoints/index.js';
import type { WorldEffect } from '../kit/dialect.js';

export const POOLS_WORLD_EFFECTS: Partial<Record<OpenPointId, WorldEffect>> = {};
