#!/usr/bin/env node
// The CLI as `npm run build` bundles it (scripts/bundle.js): src/cli/main.ts and the commands it runs.
import { main } from '../dist/bundle/main.js';

await main(process.argv.slice(2), import.meta.url);
