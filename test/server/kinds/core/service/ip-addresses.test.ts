import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../../src/server/index.js';
import { type Answer, call, ensureNamespace, startTestServer } from '../../../../helpers/server.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
  await ensureNamespace(s, 'ips');
});
afterAll(async () => {
  await s.close();
});

const SERVICES = '/api/v1/namespaces/ips/services';
const ADDRESSES = '/apis/networking.k8s.io/v1/ipaddresses';
const CIDRS = '/apis/networking.k8s.io/v1/servicecidrs';
const MERGE = { 'content-type': 'application/merge-patch+json' };

function svc(name: string, spec: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } };
}

const create = (body: unknown, query = ''): Promise<Answer> =>
  call(s, 'POST', `${SERVICES}${query}`, { body });
const address = (ip: string): Promise<Answer> => call(s, 'GET', `${ADDRESSES}/${ip}`);

async function addressNames(): Promise<string[]> {
  const list = await call(s, 'GET', ADDRESSES);
  return list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort();
}

function causeOf(r: Answer): unknown {
  expect(r.status, r.text).toBe(422);
  return r.body.details.causes;
}

describe('Service cluster IPs as IPAddress objects', () => {
  it('the kubernetes Service holds 10.96.0.1 through its IPAddress', async () => {
    const r = await address('10.96.0.1');
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.parentRef).toEqual({ resource: 'services', namespace: 'default', name: 'kubernetes' });
  });

  it('a created Service has an IPAddress as kube-apiserver writes it, gone with the Service', async () => {
    const made = await create(svc('web', { clusterIP: '10.96.0.21' }));
    expect(made.status, made.text).toBe(201);
    const r = await address('10.96.0.21');
    expect(r.status, r.text).toBe(200);
    expect(r.body.metadata.labels).toEqual({
      'ipaddress.kubernetes.io/ip-family': 'IPv4',
      'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io',
    });
    expect(r.body.spec.parentRef).toEqual({ resource: 'services', namespace: 'ips', name: 'web' });
    expect(r.body.metadata.managedFields.map((m: { manager: string }) => m.manager)).toEqual([
      'kube-apiserver',
    ]);
    const dynamic = await create(svc('dynamic'));
    const ip = dynamic.body.spec.clusterIP as string;
    expect((await address(ip)).body.spec.parentRef.name).toBe('dynamic');
    // Dynamic addresses come from the upper part of the range (KEP-3070): 10.96.1.1 and up.
    expect(ip.startsWith('10.96.0.')).toBe(false);
    expect((await call(s, 'DELETE', `${SERVICES}/web`)).status).toBe(200);
    expect((await address('10.96.0.21')).status).toBe(404);
    expect((await call(s, 'DELETE', `${SERVICES}/dynamic`)).status).toBe(200);
    expect((await address(ip)).status).toBe(404);
  });

  it('an address held by any IPAddress is refused; one outside every ServiceCIDR too', async () => {
    const held = await call(s, 'POST', ADDRESSES, {
      body: {
        metadata: { name: '10.96.0.23' },
        spec: { parentRef: { resource: 'services', namespace: 'ips', name: 'elsewhere' } },
      },
    });
    expect(held.status, held.text).toBe(201);
    expect(causeOf(await create(svc('third', { clusterIP: '10.96.0.23' })))).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.clusterIPs',
        message:
          'Invalid value: ["10.96.0.23"]: failed to allocate IP 10.96.0.23: provided IP is already allocated',
      },
    ]);
    // The refused Service releases nothing: the IPAddress is still the other one's.
    expect((await address('10.96.0.23')).body.spec.parentRef.name).toBe('elsewhere');
    expect(causeOf(await create(svc('net', { clusterIP: '10.96.0.0' })))).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.clusterIPs',
        message:
          'Invalid value: ["10.96.0.0"]: failed to allocate IP 10.96.0.0: the provided network does not match the current range',
      },
    ]);
    expect(causeOf(await create(svc('six', { clusterIP: '2001:db8::7' })))).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.clusterIPs[0]',
        message: 'Invalid value: ["2001:db8::7"]: IPv6 is not configured on this cluster',
      },
    ]);
  });

  it('a failed or dry-run create leaves no IPAddress behind', async () => {
    const before = await addressNames();
    const invalid = await create(svc('bad', { clusterIP: '10.96.0.30', sessionAffinity: 'Sometimes' }));
    expect(invalid.status, invalid.text).toBe(422);
    const dry = await create(svc('dry', { clusterIP: '10.96.0.31' }), '?dryRun=All');
    expect(dry.status, dry.text).toBe(201);
    // A dry run checks the range alone: an address in use passes too, the network address not.
    expect((await create(svc('dry', { clusterIP: '10.96.0.1' }), '?dryRun=All')).status).toBe(201);
    expect(causeOf(await create(svc('dry', { clusterIP: '10.200.0.1' }), '?dryRun=All'))).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.clusterIPs',
        message:
          'Invalid value: ["10.200.0.1"]: failed to allocate IP 10.200.0.1: the provided IP (10.200.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
      },
    ]);
    // A dynamic dry run answers the range's network address, as the reference's dry-run allocator.
    const dynamic = await create(svc('dry'), '?dryRun=All');
    expect(dynamic.body.spec.clusterIPs).toEqual(['10.96.0.0']);
    expect(await addressNames()).toEqual(before);
  });

  it('an ExternalName releases its address once stored, and allocates one when it turns back', async () => {
    expect((await create(svc('flip', { clusterIP: '10.96.0.24' }))).status).toBe(201);
    const external = await call(s, 'PATCH', `${SERVICES}/flip`, {
      headers: MERGE,
      body: { spec: { type: 'ExternalName', externalName: 'example.com' } },
    });
    expect(external.status, external.text).toBe(200);
    expect(external.body.spec).toEqual({
      ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
      type: 'ExternalName',
      sessionAffinity: 'None',
      externalName: 'example.com',
    });
    expect((await address('10.96.0.24')).status).toBe(404);
    const back = await call(s, 'PATCH', `${SERVICES}/flip`, {
      headers: MERGE,
      body: { spec: { type: 'ClusterIP', clusterIP: '10.96.0.24' } },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.spec.clusterIPs).toEqual(['10.96.0.24']);
    expect((await address('10.96.0.24')).body.spec.parentRef.name).toBe('flip');
  });

  it('a second ServiceCIDR serves requested addresses until it is being deleted', async () => {
    const cidr = await call(s, 'POST', CIDRS, {
      body: { metadata: { name: 'second' }, spec: { cidrs: ['10.251.0.0/24'] } },
    });
    expect(cidr.status, cidr.text).toBe(201);
    const made = await create(svc('second', { clusterIP: '10.251.0.5' }));
    expect(made.status, made.text).toBe(201);
    expect((await address('10.251.0.5')).body.spec.parentRef.name).toBe('second');
    expect(causeOf(await create(svc('edge', { clusterIP: '10.251.0.255' })))).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.clusterIPs',
        message:
          'Invalid value: ["10.251.0.255"]: failed to allocate IP 10.251.0.255: the provided network does not match the current range',
      },
    ]);
    // Held by a finalizer while being deleted, the CIDR is no longer ready: no more addresses from it.
    await call(s, 'PATCH', `${CIDRS}/second`, {
      headers: MERGE,
      body: { metadata: { finalizers: ['example.com/hold'] } },
    });
    expect((await call(s, 'DELETE', `${CIDRS}/second`)).status).toBe(200);
    expect(causeOf(await create(svc('late', { clusterIP: '10.251.0.6' })))).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.clusterIPs',
        message:
          'Invalid value: ["10.251.0.6"]: failed to allocate IP 10.251.0.6: the provided network does not match the current range',
      },
    ]);
    await call(s, 'PATCH', `${CIDRS}/second`, { headers: MERGE, body: { metadata: { finalizers: null } } });
  });
});

describe('a server without its bootstrap objects', () => {
  it('has no ServiceCIDR: its service range stands in', async () => {
    const bare = await startTestServer({ systemNamespaces: false });
    try {
      await ensureNamespace(bare, 'ips');
      const made = await call(bare, 'POST', SERVICES, { body: svc('web', { clusterIP: '10.96.0.40' }) });
      expect(made.status, made.text).toBe(201);
      expect((await call(bare, 'GET', `${ADDRESSES}/10.96.0.40`)).body.spec.parentRef.name).toBe('web');
    } finally {
      await bare.close();
    }
  });
});
