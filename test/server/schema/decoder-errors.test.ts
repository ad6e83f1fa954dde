/**
 * The place and the Go type a typed write's decode error names, checked against what
 * kube-apiserver 1.37 answers for the same bodies (encoding/json `UnmarshalTypeError`: Go's named
 * types, the embedded structs a field is promoted from since Go 1.24, and sigs.k8s.io/json
 * `addErrorContext`, which gives a nested decode's error the struct field it was in).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';

const NS = 'decoder-errors';
const pods = `/api/v1/namespaces/${NS}/pods`;
const cms = `/api/v1/namespaces/${NS}/configmaps`;
const services = `/api/v1/namespaces/${NS}/services`;

const pod = (spec: Record<string, unknown>) => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
});
const container = (extra: Record<string, unknown>) =>
  pod({ containers: [{ name: 'c', image: 'i', ...extra }] });

const CASES: [string, string, unknown, string][] = [
  [
    'a named string type',
    pods,
    pod({ dnsPolicy: 5 }),
    'number into Go struct field PodSpec.spec.dnsPolicy of type v1.DNSPolicy',
  ],
  [
    'a named map type',
    pods,
    container({ resources: { limits: 'x' } }),
    'string into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList',
  ],
  [
    'an item of a list of a named type',
    services,
    { metadata: { name: 's' }, spec: { ipFamilies: [5], ports: [{ port: 1 }] } },
    'number into Go struct field ServiceSpec.spec.ipFamilies of type v1.IPFamily',
  ],
  [
    'types.UID',
    cms,
    { metadata: { name: 'c', uid: 5 } },
    'number into Go struct field ObjectMeta.metadata.uid of type types.UID',
  ],
  [
    'a field promoted from an embedded struct',
    pods,
    pod({ volumes: [{ name: 'v', configMap: 5 }] }),
    'number into Go struct field Volume.spec.volumes.VolumeSource.configMap of type v1.ConfigMapVolumeSource',
  ],
  [
    'a field two embedded structs down',
    pods,
    container({ env: [{ name: 'e', valueFrom: { secretKeyRef: { name: 5, key: 'k' } } }] }),
    'number into Go struct field SecretKeySelector.spec.containers.env.valueFrom.secretKeyRef.LocalObjectReference.name of type string',
  ],
  [
    'a Time that is not a string',
    cms,
    { metadata: { name: 'c', creationTimestamp: 5 } },
    'number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
  ],
  [
    'a Time in a list item',
    cms,
    { metadata: { name: 'c', managedFields: [{ time: 5 }] } },
    'number into Go struct field ManagedFieldsEntry.metadata.managedFields.time of type string',
  ],
  [
    'an IntOrString that is not an int32',
    services,
    { metadata: { name: 's' }, spec: { ports: [{ port: 1, targetPort: 1.5 }] } },
    'number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32',
  ],
  [
    'an IntOrString under an embedded struct',
    pods,
    container({ livenessProbe: { httpGet: { port: true } } }),
    'bool into Go struct field HTTPGetAction.spec.containers.livenessProbe.ProbeHandler.httpGet.port of type int32',
  ],
];

describe('decode errors name the field as kube-apiserver does', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startTestServer();
    await ensureNamespace(s, NS);
  });
  afterAll(() => s.close());

  it.each(CASES)('%s', async (_, path, body, error) => {
    const r = await call(s, 'POST', `${path}?dryRun=All`, { body });
    expect(r.status, r.text).toBe(400);
    expect(r.body.message).toMatch(/ cannot be handled as a \w+: /);
    expect(r.body.message.endsWith(`: json: cannot unmarshal ${error}`), r.body.message).toBe(true);
  });

  it('the converter of a strategic merge patch names a named type, or only its kind', async () => {
    // runtime/converter.go `fromUnstructured`: `cannot convert %s to %s` prints the Go type,
    // `unrecognized type: %v` the reflect.Kind.
    const created = await call(s, 'POST', pods, { body: pod({}) });
    expect(created.status, created.text).toBe(201);
    const patch = (dnsPolicy: unknown) =>
      call(s, 'PATCH', `${pods}/p`, {
        body: { spec: { dnsPolicy } },
        headers: { 'content-type': 'application/strategic-merge-patch+json' },
      });
    expect((await patch(5)).body.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[spec:map[dnsPolicy:5]]": cannot convert int64 to v1.DNSPolicy',
    );
    expect((await patch(true)).body.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[spec:map[dnsPolicy:true]]": unrecognized type: string',
    );
    const overhead = await call(s, 'PATCH', `${pods}/p`, {
      body: { spec: { overhead: 'x' } },
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    // v1.ResourceList is a named map: restored as a map.
    expect(overhead.body.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[spec:map[overhead:x]]": cannot restore map from string',
    );
  });
});
