/**
 * The simulated kubelets' container logs (src/sim/kubelet/logs.ts): what a container writes, the
 * kubelet's options, and pods/log reading them through the Node's address and kubelet port.
 */

import { execFile } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/protocol/clock.js';
import { generateServingCertificates } from '../../src/server/index.js';
import type { Pod } from '../../src/sim/core/objects.js';
import { commandOutput, containerLog, KubeletLogServer, renderLog } from '../../src/sim/kubelet/logs.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';
import { findKubectls, requireTool } from '../helpers/tools.js';
import { waitUntil } from '../helpers/wait.js';

const kubectl = (await findKubectls())[0];
const haveKubectl = requireTool('kubectl', kubectl !== undefined);

const started = '2026-01-02T03:04:05Z';
const finished = '2026-01-02T03:04:09Z';
function pod(state: Record<string, unknown>, lastState: Record<string, unknown> = {}): Pod {
  return {
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      containers: [
        { name: 'c', image: 'busybox', command: ['sh', '-c', 'echo hello; sleep 1; echo "bye now"'] },
      ],
    },
    status: { containerStatuses: [{ name: 'c', state, lastState }] },
  } as unknown as Pod;
}

describe('a simulated container log', () => {
  it('prints what echo prints, alone or in a shell script', () => {
    expect(commandOutput(['echo', 'a', 'b'], [])).toEqual(['a b']);
    expect(commandOutput(['sh', '-c'], ['echo one && echo "two three"'])).toEqual(['one', 'two three']);
    expect(commandOutput(['nginx'], [])).toEqual([]);
  });

  it('starts with the container and ends with its exit', () => {
    const lines = containerLog(
      pod({ terminated: { startedAt: started, finishedAt: finished, exitCode: 3 } }),
      'c',
      false,
    );
    expect(lines.map((l) => l.text)).toEqual([
      '[simulated] container c started from image busybox',
      'hello',
      'bye now',
      '[simulated] container c exited with code 3',
    ]);
    const now = Date.parse(finished);
    expect(renderLog(lines, { timestamps: true, tailLines: 2 }, now)).toBe(
      `2026-01-02T03:04:05.000Z bye now\n2026-01-02T03:04:09.000Z [simulated] container c exited with code 3\n`,
    );
    expect(renderLog(lines, { timestamps: false, sinceSeconds: 2 }, now)).toBe(
      '[simulated] container c exited with code 3\n',
    );
    expect(renderLog(lines, { timestamps: false, limitBytes: 10 }, now)).toBe('[simulated');
  });

  it("refuses a container waiting to start and a previous instance that never was, in the kubelet's words", () => {
    expect(() => containerLog(pod({ waiting: { reason: 'ContainerCreating' } }), 'c', false)).toThrow(
      'container "c" in pod "web" is waiting to start: ContainerCreating',
    );
    expect(() => containerLog(pod({ running: { startedAt: started } }), 'c', true)).toThrow(
      'previous terminated container "c" in pod "web" not found',
    );
    const restarted = pod(
      { running: { startedAt: finished } },
      { terminated: { startedAt: started, finishedAt: finished, exitCode: 1 } },
    );
    expect(containerLog(restarted, 'c', true).at(-1)?.text).toBe(
      '[simulated] container c exited with code 1',
    );
  });
});

describe.skipIf(!haveKubectl)('pods/log of a pod on a simulated node', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    if (haveKubectl) cluster = await testCluster({ tls: true, controllers: ['simulation'] });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('reads the container log from the kubelet the Node names', async () => {
    const pods = cluster.client.resource<Pod>('pods', 'default');
    await pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'talker' },
      spec: {
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo hello from talker'] }],
      },
    } as unknown as Pod);
    await cluster.waitFor<Pod>('pods', 'talker', {
      namespace: 'default',
      timeout: 30_000,
      until: (p) => (p.status as { phase?: string } | undefined)?.phase === 'Running',
    });
    const node = await cluster.client.resource('nodes').get('node-0');
    expect((node.status as { addresses: unknown[] }).addresses).toContainEqual({
      type: 'Hostname',
      address: 'localhost',
    });
    const text = await new Promise<string>((resolve) => {
      execFile(
        kubectl!.path,
        ['--kubeconfig', cluster.kubeconfigPath, 'logs', 'talker'],
        (err, stdout, stderr) => resolve(err ? `${stderr}` : stdout),
      );
    });
    expect(text).toBe('[simulated] container c started from image busybox\nhello from talker\n');
    const tail = await new Promise<string>((resolve) => {
      const args = ['--kubeconfig', cluster.kubeconfigPath, 'logs', 'talker', '--tail=1', '--previous'];
      execFile(kubectl!.path, args, (err, stdout, stderr) => resolve(err ? `${stderr}` : stdout));
    });
    expect(tail).toBe(
      'Error from server (BadRequest): previous terminated container "c" in pod "talker" not found\n',
    );
  }, 60_000);
});

describe('the kubelet log server', () => {
  it('follows a running container until it ends, and answers 400 for one waiting to start', async () => {
    const serving = await generateServingCertificates({ hosts: ['localhost'] });
    let current = pod({ running: { startedAt: started } });
    const server = new KubeletLogServer({
      tls: { key: serving.keyPem, cert: serving.certPem },
      clock: systemClock,
      findPod: (namespace, name) => (namespace === 'ns' && name === 'web' ? current : undefined),
      followPollMs: 20,
    });
    const port = await server.listen();
    /** What the last request has received so far: a followed stream is read before it ends. */
    let received = '';
    const get = (path: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        received = '';
        const req = httpsRequest(`https://127.0.0.1:${port}${path}`, { rejectUnauthorized: false }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
            received = text;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const following = get('/containerLogs/ns/web/c?follow=true');
      // The stream is being followed: what the running container printed so far has come, and
      // the answer has not ended. Only then does the container end.
      await waitUntil(() => received.includes('hello\n'), "the running container's lines");
      current = pod({ terminated: { startedAt: started, finishedAt: finished, exitCode: 0 } });
      expect(await following).toEqual({
        status: 200,
        text: '[simulated] container c started from image busybox\nhello\nbye now\n[simulated] container c exited with code 0\n',
      });
      current = pod({ waiting: { reason: 'ErrImagePull' } });
      expect(await get('/containerLogs/ns/web/c')).toEqual({
        status: 400,
        text: 'container "c" in pod "web" is waiting to start: ErrImagePull',
      });
      expect((await get('/containerLogs/ns/other/c')).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
