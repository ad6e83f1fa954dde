import type { CheckpointIdentity } from '../../src/client/checkpoint/checkpoint-file.js';

/** The identity the checkpoint-file tests write and read back (no server behind it). */
export const TEST_CHECKPOINT_IDENTITY: CheckpointIdentity = {
  servers: ['x'],
  clusterUid: 'u',
  resource: '/v1/pods',
  namespace: 'demo',
  labelSelector: '',
  fieldSelector: '',
};
