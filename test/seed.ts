// vitest setupFiles (vitest.config.ts): DOCPLANE_FC_SEED=<seed> fixes the seed of every property
// test (fast-check prints the seed of a failure; rerun it with this). .ci/run derives it from the
// commit, so a clean-clone run before pushing draws exactly what CI will draw; without it, each
// run draws anew.
import fc from 'fast-check';

const seed = process.env.DOCPLANE_FC_SEED;
if (seed !== undefined && seed !== '') fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
