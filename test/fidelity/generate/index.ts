/**
 * Generated cases, per profile: every verb on every kind (verbs.ts) and the
 * invalid objects read off the reference's own OpenAPI (invalid.ts).
 */

import type { ServerPair } from '../servers.js';
import type { FidelityCase, Profile } from '../types.js';
import { admissionCases } from './admission.js';
import { applyCases } from './apply.js';
import { crdCases } from './crds/index.js';
import { decodingCases } from './decoding.js';
import { fieldValidationCases } from './field-validation.js';
import { invalidCases } from './invalid.js';
import { kubectlCases } from './kubectl.js';
import { verbCases } from './verbs.js';

export async function generatedCases(profile: Profile, pair: ServerPair): Promise<FidelityCase[]> {
  if (profile !== 'envtest') return [];
  return [
    ...verbCases(),
    ...(await invalidCases(pair.reference)),
    ...crdCases(),
    ...applyCases(),
    ...fieldValidationCases(),
    ...decodingCases(),
    ...admissionCases(),
    ...kubectlCases(),
  ];
}
