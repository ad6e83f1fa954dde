/**
 * The ServiceCIDR controller beyond the fidelity case (cases/service-cidrs.yaml,
 * servicecidr-delete-in-use): the prefix questions it asks, and on a test cluster the finalizer
 * and Ready condition of a new ServiceCIDR, a deletion held while an address would be orphaned,
 * and released once it is not and the grace period passed (on a manual clock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVICE_CIDR_FINALIZER,
  type ServiceCIDR,
  ServiceCIDRController,
} from '../../src/controllers/service-cidr.js';
import {
  containingAddress,
  containingPrefix,
  overlapping,
  parseAddress,
  parsePrefix,
} from '../../src/controllers/service-cidr-prefixes.js';
import { ManualClock } from '../../src/protocol/clock.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';
import { eventually, waitUntil } from '../helpers/wait.js';

const sc = (name: string, cidrs: string[]) => ({ metadata: { name }, spec: { cidrs } });

describe('the prefix questions', () => {
  const all = [
    sc('big', ['10.0.0.0/16']),
    sc('small', ['10.0.1.0/24', 'fd00::/64']),
    sc('other', ['10.9.0.0/24']),
  ];

  it('finds the ServiceCIDRs overlapping or holding a prefix', () => {
    const names = (list: Array<{ metadata: { name: string } }>) => list.map((s) => s.metadata.name);
    expect(names(overlapping(all, parsePrefix('10.0.1.128/25')!))).toEqual(['big', 'small']);
    expect(names(containingPrefix(all, parsePrefix('10.0.1.0/24')!))).toEqual(['big', 'small']);
    expect(names(containingPrefix(all, parsePrefix('10.0.0.0/16')!))).toEqual(['big']);
    expect(names(containingPrefix(all, parsePrefix('fd00::/96')!))).toEqual(['small']);
  });

  it('holds an address but a network or IPv4 broadcast address (PrefixContainsIP)', () => {
    const names = (ip: string) => containingAddress(all, parseAddress(ip)!).map((s) => s.metadata.name);
    expect(names('10.0.1.7')).toEqual(['big', 'small']);
    expect(names('10.0.1.0')).toEqual(['big']);
    expect(names('10.0.1.255')).toEqual(['big']);
    expect(names('10.0.0.0')).toEqual([]);
    expect(names('fd00::ffff')).toEqual(['small']);
    expect(parseAddress('10.0.01.1')).toBeUndefined();
    expect(parsePrefix('10.0.0.0/33')).toBeUndefined();
  });
});

describe('the ServiceCIDR controller', () => {
  let cluster: TestCluster;
  let controller: ServiceCIDRController;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['namespace'] });
    controller = new ServiceCIDRController(cluster.client, clock, () => {});
    await controller.start(1);
  });
  afterAll(async () => {
    await controller?.stop();
    await cluster?.close();
  });

  const cidrs = () => cluster.client.resource<ServiceCIDR>('servicecidrs.networking.k8s.io');
  const ready = (s: ServiceCIDR) => s.status?.conditions?.find((c) => c.type === 'Ready');

  it('marks the default ServiceCIDR as its own: finalizer and Ready condition', async () => {
    const own = await eventually(async () => {
      const s = await cidrs().get('kubernetes');
      return ready(s)?.message === 'Kubernetes Service CIDR is ready' ? s : undefined;
    }, 'the kubernetes ServiceCIDR ready');
    expect(own.metadata?.finalizers).toEqual([SERVICE_CIDR_FINALIZER]);
    expect(ready(own)).toMatchObject({ status: 'True', reason: '' });
  });

  it('holds a deletion while an address would be left outside every ServiceCIDR', async () => {
    await cidrs().create({ metadata: { name: 'held' }, spec: { cidrs: ['10.254.0.0/24'] } });
    await eventually(
      async () => ((await cidrs().get('held')).metadata?.finalizers?.length ? true : undefined),
      'the finalizer',
    );
    await cluster.client.resource('namespaces').create({ metadata: { name: 'cidr' } });
    const services = cluster.client.resource('services', 'cidr');
    await services.create({
      metadata: { name: 'web' },
      spec: { clusterIP: '10.254.0.5', ports: [{ port: 80 }] },
    });
    await cidrs().delete('held');
    const terminating = await eventually(async () => {
      const s = await cidrs().get('held');
      return ready(s)?.reason === 'Terminating' ? s : undefined;
    }, 'Terminating');
    expect(ready(terminating)).toMatchObject({
      status: 'False',
      message:
        'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR',
    });
    const before = controller.stats().syncs;
    await services.delete('web');
    // Free now, but within the grace period after its deletionTimestamp: once the controller has
    // synced the CIDR again (its IPAddress is gone), it is still there.
    await waitUntil(() => controller.stats().syncs > before, 'a sync after the Service went');
    expect((await cidrs().find('held'))?.metadata?.finalizers).toEqual([SERVICE_CIDR_FINALIZER]);
    clock.advance(15_000);
    await eventually(async () => ((await cidrs().find('held')) ? undefined : true), 'held gone');
  });
});
