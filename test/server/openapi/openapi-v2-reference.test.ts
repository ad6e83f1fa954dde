/**
 * `/openapi/v2` against the reference kube-apiserver: the whole document, with a custom resource
 * defined on both, equal after key sorting (scripts/openapi-v2-diff.ts shows the same by
 * category); the answer's media types and conditional GETs; and kubectl 1.27, which explains from
 * the v2 document, printing the same on both. Skips loudly without the reference build; fails
 * under CI=true.
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
import { findKubectls, requireTool } from '../../helpers/tools.js';

const run = promisify(execFile);
type Json = Record<string, any>;

const available = requireTool(
  `the reference kube-apiserver ${REFERENCE_RELEASE.kube} (build it: bash reference/build.sh)`,
  findReferenceBinaries() !== undefined,
);

/**
 * The reference's routes of special subresources watchmark's discovery does not list (none since
 * pods' ephemeralcontainers and resize are served): the document lists what the server serves.
 */
async function unservedSubresourcePaths(t: Target, ref: Json, wm: Json): Promise<string[]> {
  const out: string[] = [];
  for (const path of Object.keys(ref.paths)) {
    const m =
      /^\/(api\/v1|apis\/[^/]+\/[^/]+)\/(?:namespaces\/\{namespace\}\/)?([^/]+)\/\{name\}\/([^/]+)/.exec(
        path,
      );
    if (!m || path in wm.paths) continue;
    const list = JSON.parse(
      (await send(t, 'GET', `/${m[1]}`, { accept: 'application/json' })).body.toString(),
    );
    const served = (list.resources as Array<{ name: string }>).some((r) => r.name === `${m[2]}/${m[3]}`);
    if (!served) out.push(path);
  }
  return out;
}

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.v2.example.com' },
  spec: {
    group: 'v2.example.com',
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

/** The keys of two maps whose values differ (or that one lacks). */
function differingKeys(a: Json, b: Json): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => canonical(a[k]) !== canonical(b[k]),
  );
}

async function v2Json(t: Target): Promise<Json> {
  // Both publish a new definition a moment after it is established.
  for (let i = 0; ; i++) {
    const answer = await send(t, 'GET', '/openapi/v2', { accept: 'application/json' });
    const text = answer.body.toString('utf8');
    if (text.includes('com.example.v2.v1.Gadget') || i >= 60) return JSON.parse(text);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe.skipIf(!available)('/openapi/v2 against the reference kube-apiserver', () => {
  let dir: string;
  let reference: ReferenceServer | undefined;
  let watchmark: RunningServer | undefined;
  let targets: { reference: Target; watchmark: Target };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-v2-'));
    reference = await startReferenceServer({
      profile: 'envtest',
      binaries: findReferenceBinaries()!,
      log: null,
    });
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
        {
          'content-type': 'application/json',
        },
        CRD,
      );
      expect(created.status).toBe(201);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([reference?.close(), watchmark?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves the same document, custom resource included', { timeout: 120_000 }, async () => {
    const [ref, wm] = await Promise.all([v2Json(targets.reference), v2Json(targets.watchmark)]);
    const unserved = await unservedSubresourcePaths(targets.watchmark, ref, wm);
    if (unserved.length > 0)
      console.log(`/openapi/v2: routes of subresources watchmark does not serve: ${unserved.join(', ')}`);
    for (const path of unserved) delete ref.paths[path];
    expect(
      differingKeys(ref, wm).filter((k) => k !== 'paths' && k !== 'definitions' && k !== 'parameters'),
    ).toEqual([]);
    expect(differingKeys(ref.parameters, wm.parameters)).toEqual([]);
    expect(differingKeys(ref.definitions, wm.definitions)).toEqual([]);
    expect(differingKeys(ref.paths, wm.paths)).toEqual([]);
    expect(canonical(wm)).toBe(canonical(ref));
  });

  it('answers each media type and a conditional GET as the reference does', { timeout: 60_000 }, async () => {
    for (const accept of [
      'application/json',
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      'text/html',
    ]) {
      const [ref, wm] = await Promise.all([
        send(targets.reference, 'GET', '/openapi/v2', { accept }),
        send(targets.watchmark, 'GET', '/openapi/v2', { accept }),
      ]);
      expect({ accept, status: wm.status, type: wm.headers['content-type'] }).toEqual({
        accept,
        status: ref.status,
        type: ref.headers['content-type'],
      });
      if (ref.status !== 200) continue;
      expect(wm.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
      expect(ref.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
      const [refAgain, wmAgain] = await Promise.all([
        send(targets.reference, 'GET', '/openapi/v2', { accept, 'if-none-match': String(ref.headers.etag) }),
        send(targets.watchmark, 'GET', '/openapi/v2', { accept, 'if-none-match': String(wm.headers.etag) }),
      ]);
      expect(wmAgain.status).toBe(refAgain.status);
    }
  });

  it('lets kubectl 1.27 explain from it as from the reference', { timeout: 120_000 }, async () => {
    const kubectl = (await findKubectls()).find((k) => k.name === 'kubectl.1.27');
    if (!requireTool('kubectl.1.27 (beside kubectl on PATH)', kubectl !== undefined)) return;
    const explain = async (t: Target, args: string[]) =>
      (await run(kubectl!.path, ['--kubeconfig', t.kubeconfig, 'explain', ...args])).stdout;
    for (const args of [
      ['pods.spec', '--recursive', '--output=plaintext-openapiv2'],
      ['deployments.spec.strategy', '--output=plaintext-openapiv2'],
      ['gadgets.spec', '--output=plaintext-openapiv2'],
    ]) {
      const [ref, wm] = await Promise.all([
        explain(targets.reference, args),
        explain(targets.watchmark, args),
      ]);
      expect(wm, args.join(' ')).toBe(ref);
    }
  });
});
