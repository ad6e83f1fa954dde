/**
 * pods/exec, attach, portforward and the proxy subresources where no kubelet answers: the
 * answers the fidelity corpus compares (test/fidelity/cases/pod-connect.yaml, proxy.yaml) in
 * brief, and the v5 WebSocket answer byte for byte as kube-apiserver 1.37 sent it (captured
 * from the reference with curl: a 101, an empty stdout message, the Status on stream 3, a
 * normal close).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';

let s: RunningServer;
const pods = '/api/v1/namespaces/conn/pods';
beforeAll(async () => {
  s = await startTestServer();
  await ensureNamespace(s, 'conn');
  await call(s, 'POST', '/api/v1/nodes', { body: { metadata: { name: 'conn-bare' } } });
  await call(s, 'POST', '/api/v1/nodes', { body: { metadata: { name: 'conn-node' } } });
  await call(s, 'PATCH', '/api/v1/nodes/conn-node/status', {
    headers: { 'content-type': 'application/merge-patch+json' },
    body: {
      status: {
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
        daemonEndpoints: { kubeletEndpoint: { Port: 1 } },
      },
    },
  });
  const podOn = (name: string, nodeName?: string) => ({
    metadata: { name },
    spec: {
      nodeName,
      containers: [
        { name: 'c', image: 'nginx' },
        { name: 'd', image: 'nginx' },
      ],
    },
  });
  await call(s, 'POST', pods, { body: podOn('idle') });
  await call(s, 'POST', pods, { body: podOn('ghost', 'conn-ghost') });
  await call(s, 'POST', pods, { body: podOn('bare', 'conn-bare') });
  await call(s, 'POST', pods, { body: podOn('web', 'conn-node') });
});
afterAll(async () => {
  await s.close();
});

const spdy = { connection: 'Upgrade', upgrade: 'SPDY/3.1', 'x-stream-protocol-version': 'v4.channel.k8s.io' };

describe('pods/exec, attach and portforward without a kubelet', () => {
  it.each([
    ['exec?command=ls', 400, 'a container name must be specified for pod idle, choose one of: [c d]'],
    ['exec?command=ls&container=x', 400, 'container x is not valid for pod idle'],
    ['attach?container=d', 400, 'pod idle does not have a host assigned'],
    ['portforward?ports=80', 400, 'pod idle does not have a host assigned'],
    [
      'portforward?ports=70000',
      400,
      'cannot convert to []int32: strconv.ParseUint: parsing "70000": value out of range',
    ],
  ])('%s on a pod no node runs: %i %s', async (sub, code, message) => {
    const r = await call(s, 'POST', `${pods}/idle/${sub}`);
    expect([r.status, r.body.message]).toEqual([code, message]);
  });

  it('names the missing node as the pods getter does, and a node without addresses', async () => {
    const ghost = await call(s, 'POST', `${pods}/ghost/exec?container=c`);
    expect([ghost.status, ghost.body.message, ghost.body.details]).toEqual([
      404,
      'pods "conn-ghost" not found',
      { name: 'conn-ghost', kind: 'pods' },
    ]);
    const bare = await call(s, 'GET', `${pods}/bare/portforward`);
    expect([bare.status, bare.body.message, bare.body.reason]).toEqual([
      500,
      'no preferred addresses found; known addresses: []',
      undefined,
    ]);
  });

  it('wants an upgrade, then dials the kubelet for real', async () => {
    const plain = await call(s, 'POST', `${pods}/web/exec?container=c&command=ls`);
    expect([plain.status, plain.body.message]).toEqual([400, 'Upgrade request required']);
    const upgraded = await call(s, 'POST', `${pods}/web/exec?container=c&command=ls`, { headers: spdy });
    expect([upgraded.status, upgraded.body.message]).toEqual([
      500,
      'error dialing backend: dial tcp 127.0.0.1:1: connect: connection refused',
    ]);
    const log = await call(s, 'GET', `${pods}/web/log?container=d&tailLines=3&follow=true`);
    expect([log.status, log.body.message]).toEqual([
      500,
      'Get "https://127.0.0.1:1/containerLogs/conn/web/d?follow=true&tailLines=3": dial tcp 127.0.0.1:1: connect: connection refused',
    ]);
  });

  it('accepts a v5 WebSocket and reports the unreachable kubelet on the error stream', async () => {
    const url = new URL(s.url);
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
      socket.write(
        `GET ${pods}/web/exec?command=ls&container=c&stdout=true&stderr=true HTTP/1.1\r\n` +
          `Host: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: v5.channel.k8s.io\r\n\r\n',
      );
    });
    const text = bytes.toString('latin1');
    const head = text.slice(0, text.indexOf('\r\n\r\n') + 4);
    expect(head).toBe(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: v5.channel.k8s.io\r\n\r\n',
    );
    const frames = bytes.subarray(head.length);
    const cause =
      'error sending request: Post \\"https://127.0.0.1:1/exec/conn/web/c?command=ls\\u0026error=1\\u0026output=1\\": dial tcp 127.0.0.1:1: connect: connection refused';
    const status = `{"metadata":{},"status":"Failure","message":"Internal error occurred: ${cause}","reason":"InternalError","details":{"causes":[{"message":"${cause}"}]},"code":500}`;
    const payload = Buffer.concat([Buffer.from([3]), Buffer.from(status)]);
    const expected = Buffer.concat([
      Buffer.from([0x82, 0x01, 0x01]),
      Buffer.from([0x82, 0x7e, payload.length >> 8, payload.length & 0xff]),
      payload,
      Buffer.from([0x88, 0x02, 0x03, 0xe8]),
    ]);
    expect(frames.toString('hex')).toBe(expected.toString('hex'));
  });
});

describe('the proxy subresources', () => {
  it.each([
    [`${pods}/idle/proxy/`, 400, 'address not allowed'],
    [`${pods}/a:b:c:d/proxy/`, 400, 'invalid pod request "a:b:c:d"'],
    [`${pods}/ftp:idle:80/proxy/`, 400, 'invalid pod request "ftp:idle:80"'],
    ['/api/v1/namespaces/conn/services/missing/proxy/x', 503, 'no endpoints available for service "missing"'],
    ['/api/v1/namespaces/conn/services/missing:80/proxy/', 404, 'services "missing" not found'],
    ['/api/v1/nodes/conn-node/proxy/metrics', 400, 'address not allowed'],
    ['/api/v1/nodes/conn-bare/proxy/metrics', 500, 'no preferred addresses found; known addresses: []'],
    ['/api/v1/nodes/conn-none/proxy/', 404, 'nodes "conn-none" not found'],
  ])('%s: %i %s', async (path, code, message) => {
    const r = await call(s, 'GET', path);
    expect([r.status, r.body.message]).toEqual([code, message]);
  });
});
