/**
 * A built-in object's resource.Quantity is stored and answered in the text kube-apiserver's Go
 * types write back (k8s.io/apimachinery/pkg/api/resource/quantity.go `ParseQuantity`, then
 * `MarshalJSON`/`String`): `cpu: "0.5"` reads back `"500m"`. The unit tables are upstream's
 * (quantity_test.go, v1.33), ported as data; the HTTP tests run every write path, protobuf and
 * kubectl; a custom resource keeps what it was sent (it is unstructured JSON).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { canonicalQuantityText } from '../../../src/server/schema/quantity-syntax.js';
import { installCrd, plainCrd } from '../../helpers/crds.js';
import { container, deploymentBody, msg, str } from '../../helpers/protobuf-wire.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { useKubectlServer } from '../kubectl/fixture.js';

/**
 * quantity_test.go `TestQuantityString`: each canonical text parses to itself (the string kept
 * on parse), each alternate parses and prints as the canonical one. The rows whose Quantity is
 * built in Go beyond what a parse reaches (2^70 BinarySI) keep only their round trip.
 */
const STRING_TABLE: ReadonlyArray<[expect: string, alternate: string]> = [
  ['1Gi', '1024Mi'],
  ['300Mi', '307200Ki'],
  ['6Ki', ''],
  ['1001Gi', '1025024Mi'],
  ['1Ti', '1024Gi'],
  ['5', '5000m'],
  ['500m', '0.5'],
  ['1G', '1000M'],
  ['1G', '0.001T'],
  ['1m', '1000u'],
  ['80m', ''],
  ['1080m', '1.08'],
  ['1080m', '1080000000n'],
  ['300M', ''],
  ['1T', ''],
  ['1E', ''],
  ['1e21', ''],
  ['5e21', ''],
  ['1e24', ''],
  ['10e69', ''],
  ['20e69', ''],
  ['1e72', ''],
  ['1234567M', ''],
  ['1234567m', ''],
  ['3k', ''],
  ['1025', ''],
  ['0', ''],
  ['1e9', '.001e12'],
  ['1e-3', '0.001e0'],
  ['1e-9', '1000e-12'],
  ['80e-3', ''],
  ['300e6', ''],
  ['1e12', ''],
  ['1e3', ''],
  ['3e3', ''],
  ['0', '00'],
  ['1n', ''],
  ['80n', ''],
  ['1080n', ''],
  ['1u', ''],
  ['80u', ''],
  ['1080u', ''],
];

/** quantity_test.go `TestQuantityParseEmit` (and its negative run). */
const PARSE_EMIT: ReadonlyArray<[string, string]> = [
  ['1Ki', '1Ki'],
  ['1Mi', '1Mi'],
  ['1Gi', '1Gi'],
  ['1024Mi', '1Gi'],
  ['1000M', '1G'],
  ['.001Ki', '1024m'],
  ['.000001Ki', '1024u'],
  ['.000000001Ki', '1024n'],
  ['.000000000001Ki', '2n'],
];

/**
 * quantity_test.go `TestQuantityParse`: its inputs, with the amount and format it expects written
 * out as `CanonicalizeBytes` prints them (or the input itself where the fast path keeps it).
 */
const PARSE_TABLE: ReadonlyArray<[string, string]> = [
  ['0n', '0'],
  ['0Ki', '0'],
  ['0Mi', '0'],
  ['0T', '0'],
  ['1', '1'],
  ['8Ki', '8Ki'],
  ['7Mi', '7Mi'],
  ['3Ei', '3Ei'],
  ['100Ti', '100Ti'],
  ['5n', '5n'],
  ['50k', '50k'],
  ['300T', '300T'],
  ['1E', '1E'],
  ['1E-3', '1E-3'],
  ['1e14', '100e12'],
  ['1e13', '10e12'],
  ['100.035k', '100.035k'],
  ['0.001', '1m'],
  ['0.0005k', '500m'],
  ['0.00050k', '500m'],
  ['0.05000', '50m'],
  ['0.5e0', '500e-3'],
  ['0.5e-2', '5e-3'],
  ['1.2e3', '1200'],
  ['1.3E+6', '1300e3'],
  ['1.7E18', '1700e15'],
  ['9.01', '9010m'],
  ['8.1k', '8100'],
  ['40.1T', '40100G'],
  ['2.5P', '2500T'],
  ['1.01E', '1010P'],
  ['3.001n', '4n'],
  ['1.1E-9', '2e-9'],
  ['0.0000000001', '1n'],
  ['0.5e-9', '1e-9'],
  ['0.9n', '1n'],
  ['0.00000012345', '124n'],
  ['9Ei', '9223372036854775807'],
  ['9223372036854775807Ki', '9223372036854775807'],
  ['12E', '12E'],
  ['100.035Ki', '102435840m'],
  ['0.5Mi', '512Ki'],
  ['0.05Gi', '53687091200m'],
  ['0.025Ti', '27487790694400m'],
  ['0.000000000001Ki', '2n'],
  ['.001', '1m'],
  ['.0001k', '100m'],
  ['1.', '1.'],
  ['1.G', '1.G'],
];

describe('canonicalQuantityText (ParseQuantity, then String)', () => {
  it.each(STRING_TABLE)('TestQuantityString: %s (alternate %j)', (expected, alternate) => {
    expect(canonicalQuantityText(expected)).toBe(expected);
    if (alternate !== '') expect(canonicalQuantityText(alternate)).toBe(expected);
    if (expected !== '0' && alternate !== '')
      expect(canonicalQuantityText(`-${alternate}`)).toBe(`-${expected}`);
  });

  it.each(PARSE_EMIT)('TestQuantityParseEmit: %s → %s, and negated', (input, expected) => {
    expect(canonicalQuantityText(input)).toBe(expected);
    expect(canonicalQuantityText(`-${input}`)).toBe(`-${expected}`);
  });

  it.each(PARSE_TABLE)('TestQuantityParse: %s → %s', (input, expected) => {
    expect(canonicalQuantityText(input)).toBe(expected);
  });

  it('TestJSONWhitespace and TestQuantityParseZero: spaces trimmed, zero is "0"', () => {
    expect(canonicalQuantityText(' 1')).toBe('1');
    expect(canonicalQuantityText('1 ')).toBe('1');
    expect(canonicalQuantityText('10')).toBe('10');
    expect(canonicalQuantityText(' -1')).toBe('-1');
    expect(canonicalQuantityText('0')).toBe('0');
    expect(canonicalQuantityText('-0.0Gi')).toBe('0');
  });

  it('TestNegativeValueRoundsAwayFromZero: a tiny amount rounds up to one nano, either sign', () => {
    expect(canonicalQuantityText('.484785E-7466')).toBe('1e-9');
    expect(canonicalQuantityText('-.484785E-7466')).toBe('-1e-9');
    expect(canonicalQuantityText('-0.0005')).toBe('-500u');
  });

  it('the fast path keeps the text it took as canonical, sign and all', () => {
    // quantity.go `ParseQuantity` returns `s: str` for these: a kept `+` or leading zero is
    // what kube-apiserver answers too.
    expect(canonicalQuantityText('+1')).toBe('+1');
    expect(canonicalQuantityText('0100m')).toBe('0100m');
    expect(canonicalQuantityText('1025Mi')).toBe('1025Mi');
    expect(canonicalQuantityText('1000m')).toBe('1');
    expect(canonicalQuantityText('1000')).toBe('1k');
  });

  it('v1.33 has no DecimalSI suffix past E and writes the digits alone (later releases: 1e21)', () => {
    // suffix.go `constructBytes` misses for 10^21 and CanonicalizeBytes ignores its ok.
    expect(canonicalQuantityText('1000E')).toBe('1');
    expect(canonicalQuantityText('5000E')).toBe('5');
  });

  it('refuses what ParseQuantity refuses', () => {
    for (const bad of ['', '1.1.M', '1+1.0M', '0.1mi', 'aoeu', '.5i', '1i', '-3.01e-']) {
      expect(canonicalQuantityText(bad), bad).toBeUndefined();
    }
  });

  it('a huge decimal exponent is not expanded', () => {
    expect(canonicalQuantityText('1e2147483646')).toBe('1e2147483646');
    expect(canonicalQuantityText('1e-2147483647')).toBe('1e-9');
  });
});

const NS = 'quantities';
const pods = `/api/v1/namespaces/${NS}/pods`;

function podWith(name: string, resources: unknown, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources }], ...extra },
  };
}

describe('built-in objects: canonical quantities on every write', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startTestServer();
    await ensureNamespace(s, NS);
  });
  afterAll(() => s.close());

  it('a Pod created with 0.5, 1024Mi and 1000m reads back 500m, 1Gi and 1', async () => {
    const body = podWith(
      'web',
      { requests: { cpu: '0.5', memory: '1024Mi' }, limits: { cpu: '1000m', memory: '1024Mi' } },
      { volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '0.5Gi' } }] },
    );
    const created = await call(s, 'POST', pods, { body });
    expect(created.status, created.text).toBe(201);
    const want = { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } };
    expect(created.body.spec.containers[0].resources).toEqual(want);
    expect(created.body.spec.volumes[0].emptyDir).toEqual({ sizeLimit: '512Mi' });
    const got = await call(s, 'GET', `${pods}/web`);
    expect(got.body.spec.containers[0].resources).toEqual(want);
    // Defaulting copies the canonical limits into missing requests.
    const lim = await call(s, 'POST', pods, {
      body: podWith('lim', { limits: { cpu: '0.25', memory: 1e9 } }),
    });
    expect(lim.status, lim.text).toBe(201);
    expect(lim.body.spec.containers[0].resources).toEqual({
      limits: { cpu: '250m', memory: '1G' },
      requests: { cpu: '250m', memory: '1G' },
    });
  });

  it('a JSON number is answered as the canonical string', async () => {
    const r = await call(s, 'POST', pods, { body: podWith('num', { requests: { cpu: 0.5, memory: 1024 } }) });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.containers[0].resources.requests).toEqual({ cpu: '500m', memory: '1024' });
  });

  it('merge, JSON and strategic patches are canonical; the same amount again is no change', async () => {
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'dep' },
      spec: {
        selector: { matchLabels: { app: 'dep' } },
        template: {
          metadata: { labels: { app: 'dep' } },
          spec: {
            containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }],
          },
        },
      },
    };
    const path = `/apis/apps/v1/namespaces/${NS}/deployments/dep`;
    const created = await call(s, 'POST', `/apis/apps/v1/namespaces/${NS}/deployments`, { body: d });
    expect(created.status, created.text).toBe(201);
    const requests = (r: { body: any }) => r.body.spec.template.spec.containers[0].resources.requests;

    const merge = await call(s, 'PATCH', path, {
      headers: { 'content-type': 'application/merge-patch+json' },
      // A merge patch replaces the whole list.
      body: {
        spec: {
          template: {
            spec: {
              containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '0.25' } } }],
            },
          },
        },
      },
    });
    expect(merge.status, merge.text).toBe(200);
    expect(requests(merge)).toEqual({ cpu: '250m' });

    const smp = await call(s, 'PATCH', path, {
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
      body: {
        spec: {
          template: { spec: { containers: [{ name: 'c', resources: { requests: { memory: '2048Ki' } } }] } },
        },
      },
    });
    expect(smp.status, smp.text).toBe(200);
    expect(requests(smp)).toEqual({ cpu: '250m', memory: '2Mi' });

    const json = await call(s, 'PATCH', path, {
      headers: { 'content-type': 'application/json-patch+json' },
      body: [
        { op: 'replace', path: '/spec/template/spec/containers/0/resources/requests/cpu', value: '1.5' },
      ],
    });
    expect(json.status, json.text).toBe(200);
    expect(requests(json)).toEqual({ cpu: '1500m', memory: '2Mi' });

    // "1.50" is the amount stored: the decoded object equals the old one, so nothing is written.
    const same = await call(s, 'PATCH', path, {
      headers: { 'content-type': 'application/json-patch+json' },
      body: [
        { op: 'replace', path: '/spec/template/spec/containers/0/resources/requests/cpu', value: '1.50' },
      ],
    });
    expect(same.status, same.text).toBe(200);
    expect(same.body.metadata.resourceVersion).toBe(json.body.metadata.resourceVersion);
    expect(requests(same)).toEqual({ cpu: '1500m', memory: '2Mi' });
  });

  it('server-side apply stores and answers the canonical text', async () => {
    const r = await call(s, 'PATCH', `${pods}/applied?fieldManager=test`, {
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: podWith('applied', { requests: { cpu: '0.1', memory: '0.5Gi' } }),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.containers[0].resources.requests).toEqual({ cpu: '100m', memory: '512Mi' });
    const got = await call(s, 'GET', `${pods}/applied`);
    expect(got.body.spec.containers[0].resources.requests).toEqual({ cpu: '100m', memory: '512Mi' });
  });

  it("a Node's status capacity and allocatable are canonical on the status subresource", async () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } };
    const created = await call(s, 'POST', '/api/v1/nodes', { body: node });
    expect(created.status, created.text).toBe(201);
    const status = { capacity: { cpu: '4000m', pods: '1000', memory: '16Gi' }, allocatable: { cpu: '3.8' } };
    const r = await call(s, 'PUT', '/api/v1/nodes/n1/status', { body: { ...created.body, status } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status.capacity).toEqual({ cpu: '4', pods: '1k', memory: '16Gi' });
    expect(r.body.status.allocatable).toEqual({ cpu: '3800m' });
  });

  it('a protobuf body is canonical too (quantity_proto.go parses the string)', async () => {
    const limits = [
      msg(1, str(1, 'cpu'), msg(2, str(1, '0.5'))),
      msg(1, str(1, 'memory'), msg(2, str(1, '1024Mi'))),
    ];
    const body = deploymentBody(1, [container('c', 'nginx', { resources: limits })]);
    const r = await call(s, 'POST', `/apis/apps/v1/namespaces/${NS}/deployments`, {
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
      body,
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.template.spec.containers[0].resources.limits).toEqual({ cpu: '500m', memory: '1Gi' });
  });

  it('a custom resource keeps the text it was sent (unstructured JSON)', async () => {
    await installCrd(
      s,
      plainCrd(
        'q.example.com',
        { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        {
          cpu: { type: 'string' },
          size: { 'x-kubernetes-int-or-string': true },
          resources: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      ),
    );
    const spec = { cpu: '0.5', size: '1024Mi', resources: { requests: { cpu: '1000m' } } };
    const r = await call(s, 'POST', `/apis/q.example.com/v1/namespaces/${NS}/gadgets`, {
      body: { apiVersion: 'q.example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec).toEqual(spec);
  });
});

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

describe.skipIf(!haveKubectl)('quantities through kubectl', () => {
  const env = useKubectlServer(kubectls[0], 'quantities');

  it('kubectl run --overrides with a request of 0.5 CPU reads back 500m', async () => {
    const overrides = {
      spec: {
        containers: [
          { name: 'web', image: 'nginx:1.27', resources: { requests: { cpu: '0.5', memory: '1024Mi' } } },
        ],
      },
    };
    const run = await env.kubectl.run([
      'run',
      'web',
      '--image=nginx:1.27',
      `--overrides=${JSON.stringify(overrides)}`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const get = await env.kubectl.run([
      'get',
      'pod',
      'web',
      '-o',
      'jsonpath={.spec.containers[0].resources.requests.cpu} {.spec.containers[0].resources.requests.memory}',
    ]);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toBe('500m 1Gi');
  });
});
