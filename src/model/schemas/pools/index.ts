// Pools schemas, one import point.
export * from './resources.js';
