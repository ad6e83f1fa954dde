/** The options of the object storage's writes, and what a PUT answers. */
import type { KubeObject } from '../../protocol/events.js';
import type { RequestUser } from '../kinds/types.js';
import type { DeletePreconditions } from './delete-rules.js';
import type { WriteManager } from './prepare-write.js';
import type { WriteAdmission } from './write-admission.js';

/** Options shared by writes. */
export interface WriteOptions {
  /** `dryRun=All`: validate and answer, but write nothing. */
  dryRun?: boolean;
  /**
   * The caller hands the input object over (a request body decoded for this write alone): the
   * storage changes it in place instead of copying it first.
   */
  owned?: boolean;
  /**
   * Who writes, for `metadata.managedFields` (prepare-write.ts `recordOwnership`); absent for an
   * internal write, which keeps the live object's.
   */
  fieldManager?: WriteManager;
  /** The write's admission (admission/), when any hook or webhook is configured. */
  admission?: WriteAdmission;
  /** Who sends the write, when authenticated: a create hands it to the kind's `prepareForCreate`. */
  user?: RequestUser;
  /** Where the kind's warnings (ResourceKind.warnings) go: the answer's `Warning` headers. */
  warn?: (text: string) => void;
}

/** What a PUT did: the object as stored, and whether it was created (a 201). */
export interface UpdateResult {
  object: KubeObject;
  created: boolean;
}

/** DeleteOptions, as far as the server honours them. */
export interface DeleteOptions extends WriteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: DeletePreconditions;
}
