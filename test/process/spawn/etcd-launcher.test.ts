/**
 * The etcd launcher picks free ports by binding and releasing them, so
 * another process can take one before etcd binds it. Such a start fails with
 * a PortTakenError (so `cluster up` and the launcher itself can start again
 * on other ports), not with an unexplained "exited while starting".
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PortTakenError, startEtcdCluster } from '../../../src/process/spawn/etcd-launcher.js';
import { freePort } from '../../../src/process/spawn/free-port.js';
import { etcdAvailable } from '../../helpers/etcd.js';
import { withTempDir } from '../../helpers/lifecycle.js';

describe.skipIf(!etcdAvailable)('etcd launcher', () => {
  it('a member whose port another process holds fails the start with PortTakenError', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as { port: number }).port;
    try {
      await withTempDir('watchmark-launcher-', async (dataDir) => {
        const start = startEtcdCluster({
          ports: [{ client: await freePort(), peer: taken }],
          dataDir,
          startTimeoutMs: 10_000,
        });
        await expect(start).rejects.toBeInstanceOf(PortTakenError);
        await expect(start).rejects.toThrow(/exited while starting/);
      });
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
