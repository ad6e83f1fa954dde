/**
 * `/openapi/v3` against the reference kube-apiserver: the root (the same documents, each URL
 * carrying the body's hash) and every document, a custom resource's included, with the same
 * bytes, key order and all (scripts/openapi-v3-diff.ts shows the differences by document); and
 * kubectl 1.37, which explains from v3, printing the same on both. Skips loudly without the
 * reference build; fails under CI=true.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findReferenceBinaries,
  REFERENCE_RELEASE,
  type ReferenceServer,
  startReferenceServer,
} from '../../../src/process/index.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { requireTool } from '../../helpers/tools.js';

const run = promisify(execFile);
type Json = Record<string, any>;

const binaries = findReferenceBinaries();
const available = requireTool(
  `the reference kube-apiserver ${REFERENCE_RELEASE.kube} (build it: bash reference/build.sh)`,
  binaries !== undefined,
);

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.v3.example.com' },
  spec: {
    group: 'v3.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: 'Gadget is a thing.',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'integer', format: 'int32', minimum: 1, description: 'size in units.' },
                  replicas: { type: 'integer' },
                  color: { type: 'string', enum: ['red', 'blue'], default: 'red' },
                  port: { 'x-kubernetes-int-or-string': true },
                  note: { type: 'string', nullable: true },
                  blob: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  },
};

interface Target {
  url: string;
  token: string;
  ca: string;
  kubeconfig: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(
  t: Target,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${t.url}${path}`,
      {
        method,
        agent: new Agent({ ca: t.ca }),
        headers: { authorization: `Bearer ${t.token}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** JSON with sorted keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** The `/openapi/v3` root, once it lists the custom group-version (both publish it a moment after it is established). */
async function v3Root(t: Target): Promise<Record<string, { serverRelativeURL: string }>> {
  for (let i = 0; ; i++) {
    const text = (await send(t, 'GET', '/openapi/v3', {})).body.toString('utf8');
    if (text.includes('apis/v3.example.com/v1') || i >= 60) return JSON.parse(text).paths;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe.skipIf(!available)('/openapi/v3 against the reference kube-apiserver', () => {
  let dir: string;
  let reference: ReferenceServer | undefined;
  let watchmark: RunningServer | undefined;
  let targets: { reference: Target; watchmark: Target };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-v3-'));
    reference = await startReferenceServer({ profile: 'envtest', binaries: binaries!, log: null });
    watchmark = await startServer({ kubeconfigOut: join(dir, 'kubeconfig') });
    targets = {
      reference: {
        url: reference.url,
        token: reference.token,
        ca: reference.caPem,
        kubeconfig: reference.kubeconfigPath,
      },
      watchmark: {
        url: watchmark.url,
        token: watchmark.token ?? '',
        ca: watchmark.caPem ?? '',
        kubeconfig: join(dir, 'kubeconfig'),
      },
    };
    for (const t of Object.values(targets)) {
      const created = await send(
        t,
        'POST',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        { 'content-type': 'application/json' },
        CRD,
      );
      expect(created.status).toBe(201);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([reference?.close(), watchmark?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists the same documents, and serves each with the reference's bytes and hash", {
    timeout: 120_000,
  }, async () => {
    const [ref, wm] = await Promise.all([v3Root(targets.reference), v3Root(targets.watchmark)]);
    expect(Object.keys(wm)).toEqual(Object.keys(ref));
    const differing: string[] = [];
    for (const [key, { serverRelativeURL }] of Object.entries(ref)) {
      const mine = wm[key]!.serverRelativeURL;
      expect(mine, key).toMatch(
        new RegExp(`^/openapi/v3/${key.replace(/\./g, '\\.')}\\?hash=[0-9A-F]{128}$`),
      );
      const [a, b] = await Promise.all([
        send(targets.reference, 'GET', serverRelativeURL, {}),
        send(targets.watchmark, 'GET', mine, {}),
      ]);
      expect(b.status, key).toBe(a.status);
      if (a.body.equals(b.body)) continue;
      // The content first (the readable failure), then the bytes.
      expect(canonical(JSON.parse(b.body.toString())), key).toBe(canonical(JSON.parse(a.body.toString())));
      differing.push(key);
    }
    expect(differing, 'same content, other key order').toEqual([]);
    // Equal bytes, equal hashes: the root itself is the reference's.
    expect(wm).toEqual(ref);
  });

  it('lets kubectl 1.37 explain from it as from the reference', { timeout: 120_000 }, async () => {
    const explain = async (t: Target, args: string[]) =>
      (await run(binaries!.kubectl, ['--kubeconfig', t.kubeconfig, 'explain', ...args])).stdout;
    for (const args of [
      ['pods.spec.containers.resources'],
      ['deployments.spec', '--recursive'],
      ['cronjobs.spec.jobTemplate'],
      ['gadgets.spec'],
      ['gadgets', '--recursive'],
    ]) {
      const [ref, wm] = await Promise.all([
        explain(targets.reference, args),
        explain(targets.watchmark, args),
      ]);
      expect(wm, args.join(' ')).toBe(ref);
    }
  });
});
