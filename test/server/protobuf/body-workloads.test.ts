import { describe, expect, it } from 'vitest';
import { decodeProtobufObject, PROTOBUF_MAGIC } from '../../../src/server/http/protobuf-body.js';
import {
  container,
  deploymentBody,
  encode,
  entry,
  envelope,
  int,
  msg,
  serviceBody,
  servicePort,
  statusOf,
  str,
} from '../../helpers/protobuf-wire.js';

describe('decodeProtobufObject: kubectl 1.32+ create deployment', () => {
  it('decodes two images, --port and --replicas to the JSON kubectl 1.31 sends', async () => {
    const body = deploymentBody(2, [
      container('nginx', 'nginx:1', { port: 80 }),
      container('busybox', 'busybox'),
    ]);
    expect(await decodeProtobufObject(body)).toEqual({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          // A zero creationTimestamp is left out: ObjectMeta tags it `omitzero` since apimachinery
          // v0.35 (kubectl 1.31 sent it as null).
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'nginx', image: 'nginx:1', ports: [{ containerPort: 80 }], resources: {} },
              { name: 'busybox', image: 'busybox', resources: {} },
            ],
          },
        },
        strategy: {},
      },
      status: {},
    });
  });

  it('decodes a command, resource limits, and an explicit replicas 0 (a pointer)', async () => {
    // ResourceRequirements.limits: map entries {1: name, 2: Quantity {1: string}}.
    const limits = [
      msg(1, str(1, 'cpu'), msg(2, str(1, '100m'))),
      msg(1, str(1, 'memory'), msg(2, str(1, '64Mi'))),
    ];
    const c = container('busybox', 'busybox', { command: ['sleep', '3600'], resources: limits });
    const d = await decodeProtobufObject(deploymentBody(0, [c]));
    expect(d.spec).toMatchObject({
      replicas: 0,
      template: {
        spec: {
          containers: [
            {
              name: 'busybox',
              command: ['sleep', '3600'],
              resources: { limits: { cpu: '100m', memory: '64Mi' } },
            },
          ],
        },
      },
    });
  });

  it('keeps the PodSpec pointers and maps that were sent', async () => {
    const body = deploymentBody(
      1,
      [container('c', 'nginx')],
      [int(4, 30), entry(7, 'disk', 'ssd'), int(30, 0), msg(15, str(1, 'regcred'))],
    );
    expect(((await decodeProtobufObject(body)).spec as any).template.spec).toEqual({
      containers: [{ name: 'c', image: 'nginx', resources: {} }],
      terminationGracePeriodSeconds: 30,
      nodeSelector: { disk: 'ssd' },
      imagePullSecrets: [{ name: 'regcred' }],
      enableServiceLinks: false,
    });
  });
});

describe('decodeProtobufObject: kubectl 1.32+ create service', () => {
  it('decodes clusterip with a numeric and a named target port', async () => {
    const svc = await decodeProtobufObject(
      serviceBody('ClusterIP', [servicePort(80, 8080), servicePort(443, 'https')]),
    );
    expect(svc).toEqual({
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        ports: [
          { name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 },
          { name: '443-https', protocol: 'TCP', port: 443, targetPort: 'https' },
        ],
        selector: { app: 'web' },
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    });
  });

  it('decodes a headless clusterip, a nodeport with --node-port, and an externalname', async () => {
    const headless = await decodeProtobufObject(
      serviceBody('ClusterIP', [servicePort(80, 80)], { clusterIP: 'None' }),
    );
    expect(headless.spec).toMatchObject({ clusterIP: 'None', type: 'ClusterIP' });
    const nodePort = await decodeProtobufObject(serviceBody('NodePort', [servicePort(80, 8080, 30080)]));
    expect((nodePort.spec as any).ports).toEqual([
      { name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 30080 },
    ]);
    const external = await decodeProtobufObject(
      serviceBody('ExternalName', [], { externalName: 'example.com' }),
    );
    expect(external.spec).toEqual({
      selector: { app: 'web' },
      type: 'ExternalName',
      externalName: 'example.com',
    });
  });
});

describe('decodeProtobufObject: fields the schema does not list', () => {
  async function rejection(body: Buffer): Promise<string> {
    const err = await statusOf(body);
    expect(err.code).toBe(415);
    expect(err.reason).toBe('UnsupportedMediaType');
    return err.message;
  }

  it('415s a field deep in a message, naming the message and the field number', async () => {
    // A PodSpec field number the upstream schema (k8s.io/api v0.36.3) does not have yet.
    expect(await rejection(deploymentBody(1, [container('c', 'nginx')], [str(99, 'h')]))).toBe(
      'protobuf field 99 of PodSpec is not supported by watchmark; send application/json',
    );
  });

  it('415s one at the top level, in a list item, in a map value and in the envelope', async () => {
    expect(await rejection(envelope('v1', 'ConfigMap', [entry(2, 'k', 'v'), int(9, 1)]))).toContain(
      'field 9 of ConfigMap',
    );
    const future = container('c', 'nginx', { resources: [msg(9, str(1, 'gpu'))] });
    expect(await rejection(deploymentBody(1, [future]))).toContain('field 9 of ResourceRequirements');
    const limits = container('c', 'nginx', {
      resources: [msg(1, str(1, 'cpu'), msg(2, str(1, '1'), str(2)))],
    });
    expect(await rejection(deploymentBody(1, [limits]))).toContain('field 2 of Quantity');
    expect(
      await rejection(envelope('v1', 'ConfigMap', [msg(2, str(1, 'k'), str(2, 'v'), str(3))])),
    ).toContain('protobuf field 3 of ConfigMap.data entry');
    const unknown = Buffer.concat([
      PROTOBUF_MAGIC,
      encode([msg(1, str(1, 'v1'), str(2, 'ConfigMap')), int(5)]),
    ]);
    expect(await rejection(unknown)).toContain('field 5 of Unknown');
  });
});
