import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors.js';
import { RETRY_POLICY, retryPolicy, sendWrite, type UnclearVerdict } from './policy.js';
import { virtualClock } from './virtual-clock.test-support.js';

const unclear = () => new ApiError('POST', '/v1/x', 502, 'bad gateway');

describe('the one retry policy', () => {
  it('has one set of numbers, which a caller may change one at a time', () => {
    expect(RETRY_POLICY).toEqual({ maxAttempts: 8, backoffBaseMs: 200, backoffCapMs: 5_000, maxWaitMs: 300_000, maxRateLimitWaits: 30 });
    expect(retryPolicy({ maxWaitMs: 12, maxAttempts: undefined })).toMatchObject({ maxAttempts: 8, maxWaitMs: 12, backoffCapMs: 12 });
  });

  it("sends a write again after an unclear outcome only as the sender's hook says, within the policy's attempts", async () => {
    const clock = virtualClock();
    const verdicts: UnclearVerdict[] = ['again', 'again', { done: { status: 200, headers: {}, body: { id: 'found' } } }];
    let sent = 0;
    const waits: number[] = [];
    const answer = await sendWrite(
      async () => {
        sent++;
        throw unclear();
      },
      retryPolicy({ random: () => 0.5 }),
      { clock, unclear: async () => verdicts.shift() ?? 'fail', onRetry: (_a, waitMs) => waits.push(waitMs) },
    );
    expect(answer.body).toEqual({ id: 'found' });
    expect(sent).toBe(3);
    // One step further along the client's curve each time: half of 400, then of 800.
    expect(waits).toEqual([200, 400]);
  });

  it('gives up after maxAttempts, and at once when the hook cannot tell', async () => {
    const clock = virtualClock();
    let sent = 0;
    const send = async () => {
      sent++;
      throw unclear();
    };
    await expect(sendWrite(send, retryPolicy({ maxAttempts: 3, random: () => 0 }), { clock, unclear: async () => 'again' })).rejects.toBeInstanceOf(ApiError);
    expect(sent).toBe(3);
    sent = 0;
    await expect(sendWrite(send, retryPolicy({ random: () => 0 }), { clock, unclear: async () => 'fail' })).rejects.toBeInstanceOf(ApiError);
    expect(sent).toBe(1);
  });
});
