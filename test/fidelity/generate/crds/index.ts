/**
 * Custom resources: CustomResourceDefinitions refused (each rule once), and
 * the objects of accepted ones: CRUD, patches, apply, list and watch, Tables
 * with printer columns, schema errors, defaulting, pruning, the status and
 * scale subresources, several versions, cluster scope, and the real CRDs of
 * support/fixtures/crds with their examples.
 *
 * Every CRD's group holds `$n` (CRDs are cluster-scoped, cases run at once);
 * every case waits for Established on both servers before using one.
 * The cases live one topic a file; fixture.ts holds what they share.
 */

import type { FidelityCase, Step } from '../../types.js';
import { defaultingAndPruningCases } from './defaulting-pruning.js';
import { definitionCases } from './definition.js';
import { invalidDefinitionCases } from './invalid-definition.js';
import { objectCases } from './objects.js';
import { realCrdCases } from './real-crds.js';
import { schemaCases } from './schema.js';
import { subresourceCases } from './subresources.js';
import { versionCases } from './versions.js';

export function crdCases(): FidelityCase[] {
  const out: FidelityCase[] = [];
  const add = (id: string, steps: Step[], namespace = true) =>
    out.push({ id: `crds/${id}`, area: 'crds', steps, ...(namespace ? {} : { namespace: false }) });
  definitionCases(add);
  invalidDefinitionCases(add);
  objectCases(add);
  schemaCases(add);
  defaultingAndPruningCases(add);
  subresourceCases(add);
  versionCases(add);
  realCrdCases(add);
  return out;
}
