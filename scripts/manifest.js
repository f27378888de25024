#!/usr/bin/env node
// Writes oclif.manifest.json after the build. With it, oclif loads only the command being run
// instead of every command (and zod, undici, … behind them): `docplane --version` starts in a
// fraction of the time. It is the manifest oclif would build in memory at each start.
import { rmSync, writeFileSync } from 'node:fs';
import { Config } from '@oclif/core';

const root = new URL('..', import.meta.url).pathname;
const manifestPath = `${root}oclif.manifest.json`;
rmSync(manifestPath, { force: true }); // never build from a stale one
const config = await Config.load({ root, ignoreManifest: true });
const plugin = config.getPluginsList().find((p) => p.root === config.root) ?? config.getPluginsList()[0];
const manifest = plugin.manifest;
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`oclif.manifest.json: ${Object.keys(manifest.commands).length} commands`);
