// Loaded with `node --import` into a CLI run under test: on exit, writes the
// process's peak resident memory (bytes) to $RAMPART_TEST_PEAK_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.RAMPART_TEST_PEAK_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
