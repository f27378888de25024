#!/usr/bin/env node
// Runs the compiled commands with development settings (oclif's debug output on errors).
import { execute } from '@oclif/core';

await execute({ development: true, dir: import.meta.url });
