/** Progress while plan reads: a plain line every interval off a terminal, nothing once done. */
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createReadProgress } from '../../src/cli/progress.js';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  return { stream, text: () => chunks.join('') };
}

describe('read progress', () => {
  it('off a terminal: a line every interval with the requests so far, none after done()', async () => {
    const out = capture();
    let requests = 0;
    const progress = createReadProgress({ stream: out.stream, interactive: false, intervalMs: 30 });
    progress.reading(() => requests);
    requests = 12;
    await sleep(100);
    progress.done();
    const lines = out.text().trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatch(/^reading the current state: 12 requests \(\d+ s\)$/);
    const before = out.text();
    await sleep(80);
    expect(out.text()).toBe(before);
  });

  it('says when it waits for the server, and why', async () => {
    const out = capture();
    let waiting: string | undefined = 'waiting 30 s: the API asked for it (429, Retry-After: 30)';
    const progress = createReadProgress({ stream: out.stream, interactive: false, intervalMs: 20 });
    progress.reading(() => 4, () => waiting);
    while (!out.text().includes('\n')) await sleep(5);
    waiting = undefined;
    const seen = out.text().length;
    while (!out.text().slice(seen).includes('\n')) await sleep(5);
    progress.done();
    const lines = out.text().trim().split('\n');
    expect(lines[0]).toMatch(/^reading the current state: 4 requests; waiting 30 s: the API asked for it \(429, Retry-After: 30\) \(\d+ s\)$/);
    expect(lines.at(-1)).toMatch(/^reading the current state: 4 requests \(\d+ s\)$/);
  });

  it('a quick plan prints nothing', async () => {
    const out = capture();
    const progress = createReadProgress({ stream: out.stream, interactive: false, intervalMs: 5000 });
    progress.reading(() => 3);
    progress.done();
    await sleep(20);
    expect(out.text()).toBe('');
  });

  it('on a terminal: a spinner that counts, removed by done()', async () => {
    const out = capture();
    Object.assign(out.stream, { isTTY: true, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const progress = createReadProgress({ stream: out.stream, interactive: true });
    progress.reading(() => 7);
    await sleep(150);
    progress.done();
    expect(out.text()).toContain('reading the current state: 7 requests');
  });
});
