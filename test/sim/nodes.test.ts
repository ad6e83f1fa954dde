/**
 * Scheduler and kubelets: node registration, leases and taints, scheduling failures
 * retried when capacity frees, image pull failures with their events, and
 * event aggregation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/protocol/events.js';
import { eventually } from '../helpers/wait.js';
import { type Cluster, deployment, FAST, rolledOut, startCluster } from './harness.js';

let c: Cluster;
beforeAll(async () => {
  // One pod per node: the fourth pod has nowhere to go.
  c = await startCluster({ nodes: 3, nodeCapacity: 1, timing: { ...FAST, heartbeatMs: 100 } });
});
afterAll(async () => {
  await c?.close();
});

async function podEvents(pod: string): Promise<any[]> {
  const list = await c.kube.resource('events', c.namespace).list();
  return (list.items as any[]).filter((e) => e.involvedObject.name === pod);
}

async function pods(app: string): Promise<KubeObject[]> {
  return (await c.kube.resource('pods', c.namespace).list({ labelSelector: `app=${app}` })).items;
}

describe('nodes', () => {
  it('registers Ready nodes with kubelet v1.33.1 and renews their leases', async () => {
    expect(c.sim.nodes).toEqual(['node-0', 'node-1', 'node-2']);
    const nodes = (await c.kube.resource('nodes').list()).items as any[];
    expect(nodes.map((n) => n.metadata.name).sort()).toEqual(c.sim.nodes);
    const n0 = nodes.find((n) => n.metadata.name === 'node-0');
    expect(n0.status.nodeInfo).toMatchObject({ kubeletVersion: 'v1.33.1', operatingSystem: 'linux' });
    expect(n0.status.allocatable.pods).toBe('1');
    expect(n0.status.conditions.find((x: any) => x.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
    });
    const leases = c.kube.resource('leases', 'kube-node-lease');
    const first = (await leases.get('node-0')).spec as any;
    expect(first.holderIdentity).toBe('node-0');
    await eventually(
      async () => ((await leases.get('node-0')).spec as any).renewTime !== first.renewTime,
      'a renewal',
    );
    // Admission tainted each new node not-ready; the node lifecycle controller lifts it once Ready.
    await eventually(async () => {
      const all = (await c.kube.resource('nodes').list()).items as any[];
      return all.every((n) => n.spec.taints === undefined);
    }, 'the not-ready taints lifted');
    const nodeEvents = (await c.kube.resource('events', 'default').list()).items as any[];
    expect(nodeEvents.filter((e) => e.involvedObject.name === 'node-0').map((e) => e.reason)).toEqual(
      expect.arrayContaining(['Starting', 'NodeReady', 'RegisteredNode']),
    );
  });
});

describe('scheduler', () => {
  it('leaves a pod Pending with FailedScheduling when nodes are full, and places it once one frees', async () => {
    const deployments = c.kube.resource('deployments', c.namespace);
    await deployments.create(deployment('filler', 3));
    await rolledOut(c.kube, c.namespace, 'filler');
    expect(new Set((await pods('filler')).map((p: any) => p.spec.nodeName)).size).toBe(3);

    await deployments.create(deployment('late', 1));
    const [pending] = await eventually(async () => {
      const list = await pods('late');
      const cond = (list[0]?.status as any)?.conditions?.find((x: any) => x.type === 'PodScheduled');
      return cond?.status === 'False' && list;
    }, 'PodScheduled=False');
    expect((pending.status as any).conditions.find((x: any) => x.type === 'PodScheduled')).toMatchObject({
      reason: 'Unschedulable',
      message: expect.stringMatching(/^0\/3 nodes are available: 3 Too many pods\./),
    });
    const [failed] = (await podEvents(pending.metadata?.name ?? '')).filter(
      (e) => e.reason === 'FailedScheduling',
    );
    expect(failed).toMatchObject({ type: 'Warning', source: { component: 'default-scheduler' } });

    await deployments.delete('filler');
    const placed = await eventually(async () => {
      const p = (await pods('late'))[0] as any;
      return p?.spec.nodeName && p;
    }, 'the pending pod to be scheduled');
    expect(placed.metadata.name).toBe(pending.metadata?.name);
    await rolledOut(c.kube, c.namespace, 'late');
    const scheduled = await eventually(
      async () => (await podEvents(placed.metadata.name)).find((e) => e.reason === 'Scheduled'),
      'Scheduled event',
    );
    expect(scheduled.message).toBe(
      `Successfully assigned ${c.namespace}/${placed.metadata.name} to ${placed.spec.nodeName}`,
    );
    await deployments.delete('late');
    await eventually(async () => (await pods('late')).length === 0, 'late pods gone');
  });
});

describe('kubelet', () => {
  it('walks a pod through Pulling, Pulled, Created, Started to Running and Ready', async () => {
    await c.kube.resource('deployments', c.namespace).create(deployment('life', 1));
    await rolledOut(c.kube, c.namespace, 'life');
    const pod = (await pods('life'))[0] as any;
    expect(pod.status).toMatchObject({
      phase: 'Running',
      podIP: expect.stringMatching(/^10\.244\./),
      hostIP: expect.any(String),
    });
    expect(pod.status.startTime).toBeDefined();
    expect(pod.status.containerStatuses[0]).toMatchObject({
      name: 'web',
      ready: true,
      started: true,
      image: 'docker.io/library/nginx:1.27',
      state: { running: { startedAt: expect.any(String) } },
    });
    const types = pod.status.conditions.map((x: any) => `${x.type}=${x.status}`);
    expect(types).toEqual(
      expect.arrayContaining(['PodScheduled=True', 'Initialized=True', 'ContainersReady=True', 'Ready=True']),
    );
    const evs = await eventually(async () => {
      const e = await podEvents(pod.metadata.name);
      return e.some((x) => x.reason === 'Started') && e;
    }, 'Started');
    const byReason = Object.fromEntries(evs.map((e) => [e.reason, e]));
    expect(byReason.Created.message).toBe('Created container: web');
    expect(byReason.Started.message).toBe('Started container web');
    expect(byReason.Started).toMatchObject({
      source: { component: 'kubelet', host: pod.spec.nodeName },
      reportingComponent: 'kubelet',
      reportingInstance: pod.spec.nodeName,
      involvedObject: { kind: 'Pod', fieldPath: 'spec.containers{web}', uid: pod.metadata.uid },
    });
    expect(byReason.Pulled.message).toMatch(
      /^(Successfully pulled image "nginx:1\.27" in \d+ms \(\d+ms including waiting\)\. Image size: \d+ bytes\.|Container image "nginx:1\.27" already present on machine)$/,
    );
    expect(evs[0].metadata.name).toMatch(new RegExp(`^${pod.metadata.name}\\.[0-9a-f]+$`));
    await c.kube.resource('deployments', c.namespace).delete('life');
  });

  it('reports a failing image with Failed/ErrImagePull and BackOff/ImagePullBackOff, aggregating repeats', async () => {
    await c.kube
      .resource('deployments', c.namespace)
      .create(deployment('broken', 1, { image: 'doesnotexist:1.0' }));
    const pod = await eventually(async () => (await pods('broken'))[0], 'the pod');
    const name = pod.metadata?.name ?? '';
    const evs: any[] = await eventually(
      async () => {
        const e = await podEvents(name);
        const backOff = e.find((x) => x.reason === 'BackOff');
        return backOff && backOff.count >= 2 && e;
      },
      'a repeated BackOff',
      15_000,
    );
    const messages = evs.map((e) => `${e.type} ${e.reason} ${e.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Normal Pulling Pulling image "doesnotexist:1.0"',
        expect.stringMatching(
          /^Warning Failed Failed to pull image "doesnotexist:1\.0": rpc error: code = Unknown desc = .*: pull access denied, repository does not exist/,
        ),
        'Warning Failed Error: ErrImagePull',
        'Normal BackOff Back-off pulling image "doesnotexist:1.0"',
        'Warning Failed Error: ImagePullBackOff',
      ]),
    );
    // Repeats patch the first event: one object per message, count and lastTimestamp moving on.
    const backOffs = evs.filter((e) => e.reason === 'BackOff');
    expect(backOffs).toHaveLength(1);
    expect(backOffs[0].lastTimestamp >= backOffs[0].firstTimestamp).toBe(true);
    const pulling = evs.filter((e) => e.reason === 'Pulling');
    expect(pulling).toHaveLength(1);
    expect(pulling[0].count).toBeGreaterThanOrEqual(2);
    const waiting = await eventually(async () => {
      const p = (await c.kube.resource('pods', c.namespace).get(name)) as any;
      return p.status.containerStatuses?.[0]?.state?.waiting;
    }, 'a waiting state');
    expect(['ErrImagePull', 'ImagePullBackOff']).toContain(waiting.reason);
    await c.kube.resource('deployments', c.namespace).delete('broken');
  });

  it('stops the containers of a pod held by a finalizer, reports them terminated, and deletes it', async () => {
    await c.kube.resource('deployments', c.namespace).create(deployment('held', 1));
    await rolledOut(c.kube, c.namespace, 'held');
    const [pod] = await pods('held');
    const name = pod.metadata?.name ?? '';
    const podsClient = c.kube.resource('pods', c.namespace);
    await podsClient.patch(name, { metadata: { finalizers: ['example.com/hold'] } });
    await podsClient.delete(name);
    const terminated = await eventually(async () => {
      const p = (await podsClient.get(name)) as any;
      return p.status.containerStatuses?.[0]?.state?.terminated && p;
    }, 'terminated container status');
    expect(terminated.status.containerStatuses[0]).toMatchObject({
      ready: false,
      state: { terminated: { reason: 'Completed', exitCode: 0 } },
    });
    const killing = await eventually(
      async () => (await podEvents(name)).find((e) => e.reason === 'Killing'),
      'Killing',
    );
    expect(killing.message).toBe('Stopping container web');
    // The ReplicaSet replaces the terminating pod at once.
    await eventually(
      async () =>
        (await pods('held')).some((p) => p.metadata?.name !== name && (p.status as any)?.phase === 'Running'),
      'a replacement',
    );
    await podsClient.patch(name, { metadata: { finalizers: null } });
    await eventually(async () => !(await podsClient.find(name)), 'the held pod gone');
    await c.kube.resource('deployments', c.namespace).delete('held');
  });
});
