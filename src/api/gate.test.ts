import { describe, expect, it } from 'vitest';
import { createRateGate } from './gate.js';
import { virtualClock } from './virtual-clock.test-support.js';

/** Resolves to whether `p` settled within `ms`. */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, ms));
  return done;
}

describe('rate gate', () => {
  it('lets one request go alone until the first answer says how large the window is', async () => {
    const gate = createRateGate();
    // acquire() says whether it held the request back (--verbose tells that wait).
    expect(await gate.acquire()).toBe(false);
    const second = gate.acquire();
    expect(await settlesWithin(second, 30)).toBe(false);
    gate.observe({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '60' });
    expect(await settlesWithin(second, 30)).toBe(true);
    expect(await second).toBe(true);
    expect(gate.budget()).toMatchObject({ limit: 100, left: 98, inFlight: 1 });
    expect(await gate.acquire()).toBe(false);
  });

  it('starts no more than the window has left, the requests in flight counted, and waits for the reset', async () => {
    const clock = virtualClock();
    const gate = createRateGate({ clock, resetMarginMs: 0, shortWindowMs: 0 });
    await gate.acquire();
    gate.observe({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1' });
    await gate.acquire();
    await gate.acquire();
    await gate.acquire();
    expect(gate.budget()).toMatchObject({ left: 0, inFlight: 3 });
    // An answer in the same window counts what is still in flight against what it says is left.
    gate.observe({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '1' });
    expect(gate.budget().left).toBe(0);
    const before = clock.now();
    expect(await gate.acquire()).toBe(true);
    // It waited for the reset, a second after the answer that told it.
    expect(clock.sleeps).toEqual([{ at: before, ms: 1000 }]);
    expect(clock.now()).toBe(before + 1000);
  });

  it('keeps a short window by spacing starts evenly: window ÷ limit', async () => {
    const clock = virtualClock();
    const gate = createRateGate({ clock });
    await gate.acquire();
    gate.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '1' });
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      await gate.acquire();
      starts.push(clock.now());
      gate.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '1' });
    }
    // 1 s per 10 requests, 2% under the limit: 102 ms apart.
    expect(starts.slice(1).map((t, i) => t - starts[i])).toEqual([102, 102, 102, 102]);
  });

  it('without rate-limit headers, only the ceiling and the pauses hold requests back', async () => {
    const gate = createRateGate();
    await gate.acquire();
    gate.observe({});
    const all = Promise.all(Array.from({ length: 50 }, () => gate.acquire()));
    expect(await settlesWithin(all, 50)).toBe(true);
  });
});
