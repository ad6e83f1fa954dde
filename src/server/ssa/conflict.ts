/**
 * Apply conflicts and the 409 kube-apiserver answers for them (structured-merge-diff
 * merge/conflict.go `Conflict`, `ConflictsFromManagers`; k8s.io/apimachinery/pkg/util/
 * managedfields/internal/conflict.go `NewConflictError`, `getConflictMessage`, `printManager`;
 * apimachinery api/errors `NewApplyConflict`).
 */
import { StatusError } from '../../protocol/status.js';
import type { FieldSet } from './field-set.js';
import type { ManagedFieldsEntry } from './managed-fields.js';
import { type Path, pathToString } from './path-element.js';

/** smd `merge.Conflict`: a manager (its identifier) that owns a path the apply changes. */
export interface Conflict {
  readonly manager: string;
  readonly path: Path;
}

/** smd `merge.Conflicts`, thrown by the updater when an apply is not forced. */
export class ConflictsError extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(conflictMessage(conflicts));
    this.name = 'ConflictsError';
  }

  /** smd `Conflicts.ToSet` is the paths; the manager of each is kept alongside. */
  paths(): Path[] {
    return this.conflicts.map((c) => c.path);
  }
}

/**
 * smd `ConflictsFromManagers`: each manager's conflicting paths in set order. Upstream walks a Go
 * map (no fixed order); here managers come sorted by identifier, as the message prints them.
 */
export function conflictsFromManagers(sets: Map<string, FieldSet>): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort()) {
    for (const path of (sets.get(manager) as FieldSet).paths()) out.push({ manager, path });
  }
  return out;
}

/** internal conflict.go `printManager`: `"name"`, `"name" with subresource "status"`, `... using apps/v1`. */
export function printManager(manager: string): string {
  let entry: ManagedFieldsEntry;
  try {
    entry = JSON.parse(manager) as ManagedFieldsEntry;
  } catch {
    return JSON.stringify(manager);
  }
  let s = JSON.stringify(entry.manager ?? '');
  if (entry.subresource) s = `${s} with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') {
    // The identifier never carries a time, so upstream's `at <time>` form does not occur here.
    return entry.time === undefined
      ? `${s} using ${entry.apiVersion ?? ''}`
      : `${s} using ${entry.apiVersion ?? ''} at ${entry.time}`;
  }
  return s;
}

/** internal conflict.go `getConflictMessage`. */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0] as Conflict;
    return `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${pathToString(c.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const list = byManager.get(c.manager);
    if (list) list.push(c.path);
    else byManager.set(c.manager, [c.path]);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager) as Path[]) lines.push(`- ${pathToString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** internal conflict.go `NewConflictError`: the 409 Conflict Status with one cause a path. */
export function conflictStatusError(conflicts: readonly Conflict[]): StatusError {
  return StatusError.of('Conflict', conflictMessage(conflicts), {
    causes: conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${printManager(c.manager)}`,
      field: pathToString(c.path),
    })),
  });
}
