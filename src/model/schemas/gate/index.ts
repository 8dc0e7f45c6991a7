// Every Gate schema, from one place.
export * from './branding.js';
export * from './capabilities.js';
export * from './customers.js';
export * from './rails.js';
export * from './sessions.js';
export * from './webhooks.js';
export * from './requests.js';
