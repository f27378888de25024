import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONG_RUN_HEAP_FLAGS, sizeHeapForLongRun, userSizedHeap, v8Lists } from './heap.js';

const HEAP_JS = new URL('../../dist/cli/heap.js', import.meta.url).pathname;
const LISTED = [
  '  --semi-space-growth-factor (factor by which to grow the new space)',
  '        type: int  default: --semi-space-growth-factor=2',
  '  --heap-growing-percent (specifies heap growing factor as (1 + heap_growing_percent/100))',
  '        type: int  default: --heap-growing-percent=0',
].join('\n');

function node(options: { execArgv?: string[]; nodeOptions?: string; v8Options?: string }) {
  const set: string[] = [];
  const runtime = { execArgv: options.execArgv ?? [], nodeOptions: options.nodeOptions, v8Options: () => options.v8Options ?? LISTED, setFlags: (f: string) => set.push(f) };
  return { runtime, set };
}

describe('sizeHeapForLongRun', () => {
  it('sets V8’s heap options when this V8 lists them and the user set none', () => {
    const { runtime, set } = node({ execArgv: ['--enable-source-maps'], nodeOptions: '--trace-warnings' });
    expect(sizeHeapForLongRun(runtime)).toBe(true);
    expect(set).toEqual([...LONG_RUN_HEAP_FLAGS]);
  });

  it('sets nothing when this V8 does not list one of them (an unknown option would print an error)', () => {
    const { runtime, set } = node({ v8Options: LISTED.split('\n').slice(0, 2).join('\n') });
    expect(sizeHeapForLongRun(runtime)).toBe(false);
    expect(set).toEqual([]);
    expect(v8Lists(LISTED, '--heap-growing-percent=20')).toBe(true);
    expect(v8Lists(LISTED, '--heap-growing=20')).toBe(false);
  });

  it('leaves the heap as the user sized it, in NODE_OPTIONS or node’s arguments, in either spelling', () => {
    for (const options of [
      { nodeOptions: '--max-old-space-size=128' },
      { nodeOptions: '--trace-warnings --max_semi_space_size=4' },
      { execArgv: ['--heap-growing-percent=50'] },
      { execArgv: ['--optimize-for-size'], nodeOptions: '' },
    ]) {
      const { runtime, set } = node(options);
      expect(userSizedHeap(runtime)).toBe(true);
      expect(sizeHeapForLongRun(runtime)).toBe(false);
      expect(set).toEqual([]);
    }
    expect(userSizedHeap({ execArgv: ['--max-old-space-size-is-not-an-option'], nodeOptions: '--stack-size=900' })).toBe(false);
  });

  // In a node of its own: V8 must take the options at run time, which Node does not promise for every
  // option. Surviving objects that pile up show the young generation kept at its size; short-lived
  // objects that outlive two scavenges (as an apply's requests do), the old generation kept small.
  it('takes effect in a running node, silently: the young generation keeps its size, the old one grows less', () => {
    if (!existsSync(HEAP_JS)) throw new Error('dist/ is missing: run `npm run build` first');
    const script = (size: boolean) => `
      import v8 from 'node:v8';
      import { sizeHeapForLongRun } from ${JSON.stringify(HEAP_JS)};
      if (${size} && !sizeHeapForLongRun()) throw new Error('not sized');
      const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      const start = young(); const kept = [];
      for (let i = 0; i < 300000; i++) kept.push({ i, s: 'x' + i });
      const end = young();
      const ring = new Array(100000); let peak = 0;
      for (let i = 0; i < 1000000; i++) {
        ring[i % ring.length] = { i, s: 'g' + i };
        if (i % 10000 === 0) peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
      }
      console.log(JSON.stringify({ start, end, peak, kept: kept.length }));`;
    const run = (size: boolean) => {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script(size)], { encoding: 'utf8', env: { PATH: process.env.PATH } });
      expect(child.stderr).toBe('');
      return JSON.parse(child.stdout) as { start: number; end: number; peak: number };
    };
    const sized = run(true);
    const unsized = run(false);
    expect(unsized.end).toBeGreaterThanOrEqual(8 * unsized.start);
    expect(sized.end).toBeLessThanOrEqual(2 * sized.start);
    expect(sized.peak).toBeLessThan(0.7 * unsized.peak);
  });
});
