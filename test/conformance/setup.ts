// vitest setupFiles (vitest.config.ts): every emulator a test file starts in process reports its
// exchanges to the file's conformance session; after the file's tests, any problem fails the file
// (docs/conformance.md, "Over the whole suite").
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, inject, vi } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator/server.js';
import { checkSession, endSession, recordExchange } from './session.js';
import { formatProblem } from './validator.js';

vi.mock('../../src/emulator/server.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/emulator/server.js')>();
  return {
    ...real,
    startEmulator: (options: EmulatorOptions = {}) =>
      real.startEmulator({
        ...options,
        onExchange: (exchange) => {
          recordExchange(exchange);
          options.onExchange?.(exchange);
        },
      }),
  };
});

afterAll(() => {
  const result = checkSession();
  endSession();
  if (result.exchanges === 0) return;
  const file = expect.getState().testPath ?? '(unknown file)';
  const dir = inject('conformanceDir');
  if (dir) {
    const line = {
      file,
      exchanges: result.exchanges,
      checked: result.checked,
      operations: result.operations,
      unknown: result.unknown,
      allowed: result.allowed,
      problems: result.problems.length,
    };
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
  }
  if (result.problems.length > 0) {
    const lines = result.problems.map(({ problem, exchange }) => `  ${formatProblem(problem)}  [${exchange.method} ${exchange.path} → ${exchange.status}]`);
    throw new Error(`conformance: ${result.problems.length} problem(s) in the exchanges of this file (docs/conformance.md):\n${lines.join('\n')}`);
  }
});
