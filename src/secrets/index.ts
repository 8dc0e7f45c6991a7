// Secrets: one list of shapes, one registry of values, one redaction, one scan.
export { SECRET_SHAPES, SECRET_PREFIX, AUTHORIZATION_BEARER, SECRET_HEADERS, isSecretHeader, type SecretShape } from './shapes.js';
export { registerSecret, registerIssuedSecrets, registeredForms, formsOf, MIN_RANDOM_PART } from './registry.js';
export { redact, redactDeep, redactHeaders, maskAuthorizationBearer } from './redact.js';
export { scanText, scanDir, listFiles, isProbablyText, type SecretFinding } from './scan.js';
