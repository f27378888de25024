/** Progress while plan reads: a plain line every interval off a terminal, nothing once done. */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createReadProgress } from '../../src/cli/progress.js';

/** A stream that keeps what is written to it, as it is written. */
function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('read progress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('off a terminal: a line every interval with the requests so far and the seconds, none after done()', () => {
    const out = capture();
    let requests = 0;
    const progress = createReadProgress({ stream: out.stream, interactive: false, intervalMs: 1000 });
    progress.reading(() => requests);
    requests = 12;
    vi.advanceTimersByTime(999);
    expect(out.text()).toBe('');
    vi.advanceTimersByTime(1);
    requests = 13;
    vi.advanceTimersByTime(1000);
    progress.done();
    expect(out.text()).toBe('reading the current state: 12 requests (1 s)\nreading the current state: 13 requests (2 s)\n');
    vi.advanceTimersByTime(10_000);
    expect(out.text().split('\n')).toHaveLength(3);
  });

  it('says when it waits for the server, and why', () => {
    const out = capture();
    let waiting: string | undefined = 'waiting 30 s: the API asked for it (429, Retry-After: 30)';
    const progress = createReadProgress({ stream: out.stream, interactive: false, intervalMs: 1000 });
    progress.reading(() => 4, () => waiting);
    vi.advanceTimersByTime(1000);
    waiting = undefined;
    vi.advanceTimersByTime(1000);
    progress.done();
    expect(out.text()).toBe(
      'reading the current state: 4 requests; waiting 30 s: the API asked for it (429, Retry-After: 30) (1 s)\nreading the current state: 4 requests (2 s)\n',
    );
  });

  it('a quick plan prints nothing', () => {
    const out = capture();
    const progress = createReadProgress({ stream: out.stream, interactive: false, intervalMs: 5000 });
    progress.reading(() => 3);
    vi.advanceTimersByTime(4999);
    progress.done();
    vi.advanceTimersByTime(60_000);
    expect(out.text()).toBe('');
  });

  it('on a terminal: a spinner that counts, removed by done()', () => {
    // ora draws nothing when it sees CI in the environment (as .ci/run sets it): this is the terminal case.
    const ci = process.env.CI;
    delete process.env.CI;
    onTestFinished(() => {
      if (ci !== undefined) process.env.CI = ci;
    });
    const out = capture();
    Object.assign(out.stream, { isTTY: true, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    let requests = 7;
    const progress = createReadProgress({ stream: out.stream, interactive: true });
    progress.reading(() => requests);
    vi.advanceTimersByTime(150);
    expect(out.text()).toContain('reading the current state: 7 requests');
    requests = 8;
    vi.advanceTimersByTime(1000);
    expect(out.text()).toContain('reading the current state: 8 requests');
    progress.done();
    const after = out.text();
    vi.advanceTimersByTime(1000);
    expect(out.text()).toBe(after);
  });
});
