// Where rampart's own files are (fixtures, scenarios, suites, the tools
// module): the folder of its package.json, found from this module's URL. An
// installed rampart runs from node_modules/rampart while the user's folder is
// elsewhere, so nothing of the package is ever looked up from process.cwd();
// only what the user names (profiles, --reports-dir, --gates) is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/** A file or folder of the package, by its path inside the package. */
export const packagePath = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);

/** rampart's version, from its package.json. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
