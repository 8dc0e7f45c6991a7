#!/usr/bin/env node
// rampart's entry point: TypeScript sources run through tsx's loader, so a
// fresh clone needs no build step. The package's own tsconfig, never the one
// of the folder rampart is run from (an installed rampart runs in the user's
// project, whose tsconfig may say anything).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/cli/main.ts');
