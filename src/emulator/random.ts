/**
 * Seeded randomness. The faults must be reproducible in tests (same seed, same sequence of
 * strikes), so everything random in the emulator draws from a small PRNG instead of Math.random.
 */
import { randomInt } from 'node:crypto';

export type Random = () => number;

/** mulberry32: a tiny, fast 32-bit generator, good enough for fault injection and ids. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for runs that did not ask for one. */
export function freshSeed(): number {
  return randomInt(0, 2 ** 31);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Opaque ids such as `team_x7Gk2mQp9LzR4wYb`: a kind prefix and 16 random characters. */
export function idMaker(random: Random): (prefix: string) => string {
  return (prefix) => {
    let id = `${prefix}_`;
    for (let i = 0; i < 16; i++) id += ALPHABET[Math.floor(random() * ALPHABET.length)];
    return id;
  };
}
