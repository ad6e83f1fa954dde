import type { KubeObject } from '../../protocol/events.js';
import type { ListMode } from '../stats/stats.js';

/** One listed object with its JSON text. */
export interface ListedObject {
  object: KubeObject;
  json: string;
}

/** A list answer before rendering. */
export interface ListResult {
  items: ListedObject[];
  resourceVersion: number;
  continue?: string;
  remainingItemCount?: number;
  mode: ListMode;
  /** Objects looked at to find the items. */
  examined: number;
}
