/** What every bootstrap writer is (index.ts runs them). */
import type { ObjectStorage } from '../registry/object-storage.js';

/** Writes one set of bootstrap objects that are missing. */
export type BootstrapWriter = (objects: ObjectStorage) => Promise<void>;
