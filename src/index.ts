// Library entry: the pieces a program (or a test) can use without the CLI.
export * from './core/errors.js';
export * from './core/secrets.js';
export type * from './plan/types.js';
export type * from './api/types.js';
