/**
 * runApply's options for a test that applies in process: approved, no terminal, nothing printed;
 * `extra` overrides any of them.
 */
import { PassThrough } from 'node:stream';
import type { RunApplyOptions } from '../../src/apply/run.js';

export function quietApply(configPath: string, connect: RunApplyOptions['connect'], extra: Partial<RunApplyOptions> = {}): RunApplyOptions {
  return {
    configPath,
    autoApprove: true,
    force: false,
    targets: [],
    toolVersion: '0.1.0',
    concurrency: 4,
    notify: () => undefined,
    progress: { stream: new PassThrough(), interactive: false, color: false },
    interactive: false,
    confirm: async () => true,
    connect,
    ...extra,
  };
}
