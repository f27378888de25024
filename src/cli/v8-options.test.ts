import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONG_RUN_HEAP_FLAGS, OPTIMIZE_LATER_FLAGS, optimizeLater, sizeHeapForLongRun, userSizedHeap, userTunedTiering } from './v8-options.js';

const V8_OPTIONS_JS = new URL('../../dist/cli/v8-options.js', import.meta.url).pathname;

describe('sizeHeapForLongRun', () => {
  it('sets V8’s heap options when the user set none', () => {
    const set: string[] = [];
    expect(sizeHeapForLongRun({ execArgv: ['--enable-source-maps'], nodeOptions: '--trace-warnings' }, (flag) => set.push(flag))).toBe(true);
    expect(set).toEqual([...LONG_RUN_HEAP_FLAGS]);
  });

  it('leaves the heap as the user sized it, in NODE_OPTIONS or node’s arguments, in either spelling', () => {
    for (const options of [
      { execArgv: [], nodeOptions: '--max-old-space-size=128' },
      { execArgv: [], nodeOptions: '--trace-warnings --max_semi_space_size=4' },
      { execArgv: ['--heap-growing-percent=50'], nodeOptions: undefined },
      { execArgv: ['--optimize-for-size'], nodeOptions: '' },
    ]) {
      const set: string[] = [];
      expect(userSizedHeap(options)).toBe(true);
      expect(sizeHeapForLongRun(options, (flag) => set.push(flag))).toBe(false);
      expect(set).toEqual([]);
    }
    expect(userSizedHeap({ execArgv: ['--max-old-space-size-is-not-an-option'], nodeOptions: '--stack-size=900' })).toBe(false);
  });

  // In a node of its own: V8 must take the options at run time, which Node does not promise for every
  // option. Surviving objects that pile up show the young generation kept at its size; short-lived
  // objects that outlive two scavenges (as an apply's requests do), the old generation kept small.
  it('takes effect in a running node: the young generation keeps its size, the old one grows by 20%', () => {
    if (!existsSync(V8_OPTIONS_JS)) throw new Error('dist/ is missing: run `npm run build` first');
    const script = (size: boolean) => `
      import v8 from 'node:v8';
      import { sizeHeapForLongRun } from ${JSON.stringify(V8_OPTIONS_JS)};
      if (${size}) sizeHeapForLongRun({ execArgv: [], nodeOptions: undefined });
      const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      const start = young(); const kept = [];
      for (let i = 0; i < 300000; i++) kept.push({ i, s: 'x' + i });
      const end = young();
      const ring = new Array(100000); let peak = 0;
      for (let i = 0; i < 3000000; i++) {
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
    // Measured: 94 MiB against 186 MiB.
    expect(sized.peak).toBeLessThan(0.7 * unsized.peak);
  });
});

describe('optimizeLater', () => {
  it('sets the interrupt budget when the user chose nothing of V8’s compilers', () => {
    const set: string[] = [];
    const options = { execArgv: ['--enable-source-maps', '--trace-opt', '--max-old-space-size=512'], nodeOptions: '--trace-warnings' };
    expect(userTunedTiering(options)).toBe(false);
    expect(optimizeLater(options, (flag) => set.push(flag))).toBe(true);
    expect(set).toEqual([...OPTIMIZE_LATER_FLAGS]);
  });

  it('leaves V8’s compilers as the user set them, in either spelling', () => {
    for (const options of [
      { execArgv: ['--interrupt-budget=1000'], nodeOptions: undefined },
      { execArgv: ['--no-opt'], nodeOptions: undefined },
      { execArgv: ['--max_opt=1'], nodeOptions: undefined },
      { execArgv: [], nodeOptions: '--jitless' },
      { execArgv: ['--turbofan'], nodeOptions: '' },
    ]) {
      const set: string[] = [];
      expect(optimizeLater(options, (flag) => set.push(flag))).toBe(false);
      expect(set).toEqual([]);
    }
  });

  // In a node of its own, as the heap's: a small function called 150 times is marked for Turbofan
  // under V8's default budget (it is at ~100 calls), and not yet with the budget docplane sets.
  it('takes effect in a running node: a function that has run briefly is not optimized yet', () => {
    if (!existsSync(V8_OPTIONS_JS)) throw new Error('dist/ is missing: run `npm run build` first');
    const script = (later: boolean) => `
      import { optimizeLater } from ${JSON.stringify(V8_OPTIONS_JS)};
      if (${later}) optimizeLater({ execArgv: [], nodeOptions: undefined });
      function work(n) { let s = 0; for (let i = 0; i < n; i++) s += (i * 7) % 13; return s; }
      let total = 0;
      for (let k = 0; k < 150; k++) total += work(50);
      console.log(total);`;
    const marked = (later: boolean) => {
      const child = spawnSync(process.execPath, ['--trace-opt', '--input-type=module', '-e', script(later)], { encoding: 'utf8', env: { PATH: process.env.PATH } });
      expect(child.status).toBe(0);
      return child.stdout.split('\n').filter((line) => /^\[marking .*<JSFunction work .*for optimization to TURBOFAN/.test(line)).length;
    };
    expect(marked(false)).toBeGreaterThan(0);
    expect(marked(true)).toBe(0);
  });
});
