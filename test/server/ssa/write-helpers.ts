/**
 * What the write tests share: the entry points typed loosely for reads, fixed times, the
 * ConfigMap and Deployment contexts, a JSON merge patch, and the StatusError a call throws.
 */
import { StatusError } from '../../../src/protocol/status.js';
import { applyConfiguration, type ManagedFieldsEntry, recordUpdate } from '../../../src/server/ssa/index.js';
import { CONFIGMAP, DEPLOYMENT } from './schema-fixture.js';

/** The entry points, with the object typed loosely for the tests' reads. */
export type Result = { object: any; managedFields: ManagedFieldsEntry[] | undefined; noop: boolean };
export const apply = (a: Parameters<typeof applyConfiguration>[0]): Result => applyConfiguration(a);
export const update = (a: Parameters<typeof recordUpdate>[0]): Result => recordUpdate(a);

export const T1 = new Date('2026-01-01T10:00:00.250Z');
export const T2 = new Date('2026-01-01T10:00:01Z');
export const T3 = new Date('2026-01-01T10:00:02Z');

export type Obj = Record<string, any>;

export const cm = { node: CONFIGMAP, apiVersion: 'v1', kind: 'ConfigMap' };
export const dep = { node: DEPLOYMENT, apiVersion: 'apps/v1', kind: 'Deployment' };

/** A JSON merge patch of `patch` onto `obj` (RFC 7386), for the update tests. */
export function mergePatch(obj: unknown, patch: unknown): any {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Obj = obj !== null && typeof obj === 'object' && !Array.isArray(obj) ? { ...(obj as Obj) } : {};
  for (const [k, v] of Object.entries(patch as Obj)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** The StatusError `fn` throws. */
export function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}
