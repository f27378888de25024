/**
 * `import --force` on a full disk (simulated: the write of the new file fails with ENOSPC after a
 * part of it): the organization's YAML is the old one, byte for byte, with the user's prune and
 * safety, and the error names the file and says that the old one is intact.
 */
import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { DocplaneError } from '../../src/core/errors.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runImport } from '../../src/import/run.js';
import { richState } from './helpers.js';

const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    // A full disk takes a part of the write and refuses the rest.
    writeSync: (fd: number, buffer: Uint8Array, offset?: number, length?: number) => {
      if (!disk.full) return real.writeSync(fd, buffer, offset, length);
      real.writeSync(fd, buffer, offset, Math.min(length ?? buffer.length, 100));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    },
  };
});

let emulator: RunningEmulator;
let work: string;
const connect = () => Promise.resolve(createClient({ baseUrl: emulator.url, token: 'read-token' }));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, state: richState(), seed: 4 });
  work = mkdtempSync(join(tmpdir(), 'docplane-full-disk-'));
});

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('import on a full disk', () => {
  it('leaves the old file intact and names it', async () => {
    const out = join(work, 'config');
    await runImport({ orgs: ['org_rich'], out, cwd: work, connect });
    const file = join(out, 'org_rich.yaml');
    // The user's own settings, which the API does not know.
    writeFileSync(file, `${readFileSync(file, 'utf8')}prune: [teams]\nsafety: { maxDeletes: 3 }\n`);
    const before = readFileSync(file, 'utf8');

    disk.full = true;
    let error: unknown;
    try {
      await runImport({ orgs: ['org_rich'], out, cwd: work, connect, force: true });
    } catch (err) {
      error = err;
    } finally {
      disk.full = false;
    }
    expect(error).toBeInstanceOf(DocplaneError);
    expect((error as DocplaneError).message).toBe(`cannot write ${file}: no space left on the device; the old file is intact`);
    expect((error as DocplaneError).code).toBe('FILE_WRITE_FAILED');
    expect(readFileSync(file, 'utf8')).toBe(before);
    // No temporary file is left behind.
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(fs.existsSync(file)).toBe(true);
  });
});
