/** The fuzz run's one seeded random source: every choice of every request draws from it, in order. */
import { mulberry32 } from '../../../helpers/random.js';
export const SEED = Number(process.env.WATCHMARK_FUZZ_SEED ?? 0x5eed_2024);

export const rand = mulberry32(SEED);
export const chance = (p: number) => rand() < p;
export const int = (n: number) => Math.floor(rand() * n);
export const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
