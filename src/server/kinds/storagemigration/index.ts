/** The storagemigration.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { storageVersionMigrationKind } from './storage-version-migration.js';

/** The storagemigration.k8s.io group's kinds. */
export const storageMigrationKinds: ResourceKind[] = [storageVersionMigrationKind];
