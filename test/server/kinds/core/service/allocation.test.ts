import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../../src/server/index.js';
import { type Answer, call, ensureNamespace, startTestServer } from '../../../../helpers/server.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
  for (const ns of ['a', 'b']) await ensureNamespace(s, ns);
});
afterAll(async () => {
  await s.close();
});

const services = (ns: string) => `/api/v1/namespaces/${ns}/services`;
const MERGE = { 'content-type': 'application/merge-patch+json' };

function svc(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } };
}

async function create(ns: string, body: unknown): Promise<Answer> {
  return call(s, 'POST', services(ns), { body });
}

function inCidr(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 10 && b >= 96 && b <= 111;
}

function expect422(r: Answer, field: string, message: string): void {
  expect(r.status, r.text).toBe(422);
  expect(r.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', field, message }]);
}

describe('Service cluster IPs and node ports', () => {
  it('a ClusterIP Service gets a free IP from 10.96.0.0/12, mirrored in clusterIPs; headless and ExternalName get none', async () => {
    const one = await create('a', svc('one', {}));
    const two = await create('a', svc('two', {}));
    expect(one.status, one.text).toBe(201);
    expect(two.status, two.text).toBe(201);
    for (const r of [one, two]) {
      expect(inCidr(r.body.spec.clusterIP)).toBe(true);
      expect(r.body.spec.clusterIP).not.toBe('10.96.0.1');
      expect(r.body.spec.clusterIPs).toEqual([r.body.spec.clusterIP]);
    }
    expect(one.body.spec.clusterIP).not.toBe(two.body.spec.clusterIP);
    const headless = await create('a', svc('headless', { clusterIP: 'None' }));
    expect(headless.body.spec.clusterIPs).toEqual(['None']);
    const ext = await create(
      'a',
      svc('ext', { type: 'ExternalName', externalName: 'example.com', ports: [] }),
    );
    expect(ext.status, ext.text).toBe(201);
    expect(ext.body.spec.clusterIP).toBeUndefined();
  });

  it('an asked-for IP must be free and in range', async () => {
    const first = await create('a', svc('fixed', { clusterIP: '10.96.7.7' }));
    expect(first.status, first.text).toBe(201);
    expect(first.body.spec.clusterIPs).toEqual(['10.96.7.7']);
    expect422(
      await create('b', svc('fixed', { clusterIP: '10.96.7.7' })),
      'spec.clusterIPs',
      'Invalid value: ["10.96.7.7"]: failed to allocate IP 10.96.7.7: provided IP is already allocated',
    );
    expect422(
      await create('b', svc('far', { clusterIP: '192.168.0.9' })),
      'spec.clusterIPs',
      'Invalid value: ["192.168.0.9"]: failed to allocate IP 192.168.0.9: the provided network does not match the current range',
    );
  });

  it('NodePort Services get node ports in 30000-32767, unique across namespaces; a deleted Service frees its port', async () => {
    const auto = await create(
      'a',
      svc('np-auto', {
        type: 'NodePort',
        ports: [
          { name: 'http', port: 80 },
          { name: 'https', port: 443 },
        ],
      }),
    );
    expect(auto.status, auto.text).toBe(201);
    const ports = auto.body.spec.ports.map((p: { nodePort: number }) => p.nodePort);
    for (const p of ports) expect(p >= 30000 && p <= 32767).toBe(true);
    expect(new Set(ports).size).toBe(2);
    expect(
      (await create('a', svc('np-fixed', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] })))
        .status,
    ).toBe(201);
    expect422(
      await create('b', svc('np-fixed', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] })),
      'spec.ports[0].nodePort',
      'Invalid value: 31000: provided port is already allocated',
    );
    expect422(
      await create('b', svc('np-low', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] })),
      'spec.ports[0].nodePort',
      'Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    expect((await call(s, 'DELETE', `${services('a')}/np-fixed`)).status).toBe(200);
    expect(
      (await create('b', svc('np-fixed', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] })))
        .status,
    ).toBe(201);
    const lb = await create('a', svc('lb', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }));
    expect(lb.status, lb.text).toBe(201);
    expect(lb.body.spec.ports[0].nodePort).toBeUndefined();
  });

  it('updates keep what was allocated; the cluster IP cannot change', async () => {
    const created = (await create('a', svc('keep', { type: 'NodePort' }))).body;
    const { clusterIP } = created.spec;
    const nodePort = created.spec.ports[0].nodePort;
    // A PUT without the allocated fields, as `kubectl replace` of a hand-written manifest sends.
    const replaced = await call(s, 'PUT', `${services('a')}/keep`, {
      body: svc('keep', { type: 'NodePort', selector: { app: 'x' } }),
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.spec.clusterIP).toBe(clusterIP);
    expect(replaced.body.spec.ports[0].nodePort).toBe(nodePort);
    // A second port added later gets its own node port; the first keeps its.
    const patched = await call(s, 'PATCH', `${services('a')}/keep`, {
      headers: MERGE,
      body: {
        spec: {
          ports: [
            { name: 'http', port: 80 },
            { name: 'alt', port: 8080 },
          ],
        },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.spec.ports[0].nodePort).toBe(nodePort);
    expect(patched.body.spec.ports[1].nodePort).toBeGreaterThanOrEqual(30000);
    const moved = await call(s, 'PATCH', `${services('a')}/keep`, {
      headers: MERGE,
      body: { spec: { clusterIP: '10.96.9.9', clusterIPs: ['10.96.9.9'] } },
    });
    expect(moved.status, moved.text).toBe(422);
    expect(moved.body.details.causes[0]).toMatchObject({
      field: 'spec.clusterIPs[0]',
      message: 'Invalid value: "10.96.9.9": may not change once set',
    });
  });
});
