/**
 * The whole corpus with a filter: the written cases now, the generated ones
 * once the reference of a profile runs (they read its OpenAPI).
 */

import { writtenCases } from './corpus.js';
import { generatedCases } from './generate/index.js';
import type { ServerPair } from './servers.js';
import type { FidelityCase, Profile } from './types.js';

export function allCases(filter: (id: string) => boolean = () => true): {
  written: FidelityCase[];
  generated: (profile: Profile, pair: ServerPair) => Promise<FidelityCase[]>;
} {
  return {
    written: writtenCases().filter((c) => filter(c.id)),
    generated: async (profile, pair) => (await generatedCases(profile, pair)).filter((c) => filter(c.id)),
  };
}
