/** mulberry32, the seeded PRNG of the study, so fuzz and chaos failures replay from their seed. */
export { seededRandom as mulberry32 } from '../../src/process/index.js';
