#!/usr/bin/env node
// The CLI as `npm run build` bundles it (scripts/bundle.js): src/cli/main.ts and the commands it runs.
// With --verbose, a stack trace names docplane's TypeScript sources (the bundle's source maps); Node
// reads the maps of the modules loaded after this, so the bundle is imported below it.
if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);
const { main } = await import('../dist/bundle/main.js');

await main(process.argv.slice(2), import.meta.url);
