// Pools schemas, one import point.
export * from './resources.js';
export * from './requests.js';
