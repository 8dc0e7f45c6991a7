import type { Requirement } from '../types.js';

export const requirements: Requirement[] = [];
