/** What the printer-column tests share: a fixed clock, and a kind's column names and row cells. */
import type { KubeObject } from '../../../src/protocol/events.js';
import { findByKind } from '../../../src/server/kinds/served/registry.js';
import type { ResourceKind } from '../../../src/server/kinds/types.js';

export const now = Date.parse('2024-05-01T12:00:00Z');
export const ago = (ms: number) => new Date(now - ms).toISOString();
export const MIN = 60_000;

export function names(k: ResourceKind, priority?: number): string[] {
  return k.columns
    .filter((c) => priority === undefined || c.priority === priority)
    .map((c) => c.name.toUpperCase());
}

export function row(k: ResourceKind, obj: KubeObject): Array<string | number | boolean | null> {
  return k.columns.map((c) => c.cell(obj, now));
}

export const kind = (apiVersion: string, name: string) => findByKind(apiVersion, name)!;
