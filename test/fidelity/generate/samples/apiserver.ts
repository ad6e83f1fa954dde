/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import type { KindSample } from './kit.js';

export const apiserverSamples: KindSample[] = [];
