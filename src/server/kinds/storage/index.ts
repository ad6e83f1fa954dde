/** The storage.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { csiDriverKind } from './csidriver.js';
import { csiNodeKind } from './csinode.js';
import { csiStorageCapacityKind } from './csistoragecapacity.js';
import { storageClassKind } from './storageclass.js';
import { volumeAttachmentKind } from './volumeattachment.js';
import { volumeAttributesClassKind } from './volumeattributesclass.js';

/** The storage.k8s.io group's kinds. */
export const storageKinds: ResourceKind[] = [
  storageClassKind,
  csiDriverKind,
  csiNodeKind,
  csiStorageCapacityKind,
  volumeAttributesClassKind,
  volumeAttachmentKind,
];
