/**
 * Writes checkpoints of many objects to one path, back to back, until
 * killed: `node --import tsx checkpoint-writer-child.ts PATH`. The torn-write
 * test kills it while a temporary file is being written.
 */
import { writeCheckpointFile } from '../../src/client/checkpoint/checkpoint-file.js';
import { TEST_CHECKPOINT_IDENTITY } from './checkpoint-fixture.js';

const [path] = process.argv.slice(2);
const objects = Array.from({ length: 20_000 }, (_, i) => ({
  metadata: { name: `p-${i}`, namespace: 'demo', resourceVersion: String(i + 1) },
  spec: { containers: [{ name: 'c', image: 'nginx', args: ['x'.repeat(200)] }] },
}));
const identity = TEST_CHECKPOINT_IDENTITY;
for (let n = 2; ; n++)
  await writeCheckpointFile(path, { savedAt: Date.now(), identity, resourceVersion: String(n) }, objects);
