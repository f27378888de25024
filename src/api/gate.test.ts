import { describe, expect, it } from 'vitest';
import { createRateGate } from './gate.js';

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
    let t = 1_000_000;
    const gate = createRateGate({ now: () => t, resetMarginMs: 0, shortWindowMs: 0 });
    await gate.acquire();
    gate.observe({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1' });
    await gate.acquire();
    await gate.acquire();
    await gate.acquire();
    expect(gate.budget()).toMatchObject({ left: 0, inFlight: 3 });
    // An answer in the same window counts what is still in flight against what it says is left.
    gate.observe({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '1' });
    expect(gate.budget().left).toBe(0);
    const next = gate.acquire();
    expect(await settlesWithin(next, 30)).toBe(false);
    t += 1000; // the reset (the fake clock moves; the gate's sleep is real and short)
    expect(await settlesWithin(next, 1100)).toBe(true);
  });

  it('keeps a short window by spacing starts evenly: window ÷ limit', async () => {
    const gate = createRateGate();
    await gate.acquire();
    gate.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '1' });
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) {
      await gate.acquire();
      gate.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '1' });
    }
    // 1 s per 10 requests: 100 ms apart (the first at once).
    expect(performance.now() - t0).toBeGreaterThanOrEqual(380);
  });

  it('without rate-limit headers, only the ceiling and the pauses hold requests back', async () => {
    const gate = createRateGate();
    await gate.acquire();
    gate.observe({});
    const all = Promise.all(Array.from({ length: 50 }, () => gate.acquire()));
    expect(await settlesWithin(all, 50)).toBe(true);
  });
});
