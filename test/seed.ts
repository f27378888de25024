// vitest setupFiles (vitest.config.ts): every property test draws from one seed per file, and a test
// that fails or times out prints it, so that DOCPLANE_FC_SEED=<seed> replays exactly what it drew
// (fast-check prints the seed of a failed property itself, but a timeout ends the test before it
// can). DOCPLANE_FC_SEED fixes the seed; .ci/run derives it from the commit, so a clean-clone run
// before pushing draws exactly what CI will draw; without it, each run draws anew.
import fc from 'fast-check';
import { beforeEach } from 'vitest';

const given = process.env.DOCPLANE_FC_SEED;
const seed = given !== undefined && given !== '' ? Number(given) : Math.floor(Math.random() * 2 ** 31);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    process.stderr.write(`property seed of this file: ${seed} (replay with DOCPLANE_FC_SEED=${seed})\n`);
  });
});
