// The secret scan lives in src/secrets; re-exported for the report writers.
export { scanText, scanDir, listFiles, isProbablyText, type SecretFinding } from '../secrets/scan.js';
export { AUTHORIZATION_BEARER } from '../secrets/shapes.js';
export { maskAuthorizationBearer } from '../secrets/redact.js';
