/**
 * Seeded fuzzing of request parsing against one running server: random
 * methods, paths from the real path grammar with garbage mixed in, random
 * query parameters, bodies and content types, sent concurrently. Every answer
 * must be well formed (a Status with the matching code for every error, never
 * a 500), the server must keep answering, and the final lists must hold
 * exactly what the successful writes said they did.
 *
 * Reproduce a failure with `WATCHMARK_FUZZ_SEED=<seed> npx vitest run test/server/e2e/fuzz/fuzz.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { startTestServer } from '../../../helpers/server.js';
import { problem } from './answers.js';
import { FUZZ_KINDS } from './bodies.js';
import { listAll, ObjectModel } from './model.js';
import { continueTokens, type FuzzAnswer, type FuzzRequest, NAMESPACES } from './paths.js';
import { SEED } from './random.js';
import { buildRequest, send } from './requests.js';

/** The label of the IPAddresses a Service's cluster IP allocator writes. */
const MANAGED_BY = 'ipaddress.kubernetes.io/managed-by';

const REQUESTS = 1500;
const CONCURRENCY = 8;

describe(`fuzz (seed ${SEED})`, () => {
  let server: RunningServer;
  const model = new ObjectModel();
  beforeAll(async () => {
    server = await startTestServer({ tooLargeWait: 50 });
    for (const ns of NAMESPACES) {
      const r: FuzzRequest = {
        method: 'POST',
        path: '/api/v1/namespaces',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })),
        dryRun: false,
      };
      const a = await send(server, r);
      expect(a.status, a.text).toBe(201);
    }
    // Whatever the server starts with (default namespaces...) is part of the model too.
    for (const kind of FUZZ_KINDS)
      for (const obj of await listAll(server, kind)) model.recordObject(obj, false);
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`${REQUESTS} random requests all get well-formed answers, and the server keeps answering`, async () => {
    const problems: string[] = [];
    const byStatus = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const i = next++;
        const r = buildRequest();
        let a: FuzzAnswer;
        try {
          a = await send(server, r);
        } catch (err) {
          problems.push(`#${i} ${r.method} ${r.path.slice(0, 200)}: ${(err as Error).message}`);
          continue;
        }
        byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
        const p = problem(r, a);
        if (p)
          problems.push(
            `#${i} ${r.method} ${r.path.slice(0, 200)} [${r.headers['content-type'] ?? ''}]: ${p}`,
          );
        model.observe(r, a);
        if (a.status === 200 && r.method === 'GET' && !a.streamed) {
          const token = /"continue":"([^"]+)"/.exec(a.text)?.[1];
          if (token) continueTokens.push(token);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(problems, `seed ${SEED}`).toEqual([]);
    // The mix is worth something only if it reached every class of answer.
    const codes = [...byStatus.keys()];
    for (const code of [200, 201, 400, 404, 405, 409, 415, 422])
      expect(codes, JSON.stringify([...byStatus])).toContain(code);
    expect(model.writes).toBeGreaterThan(50);
    const health = await send(server, { method: 'GET', path: '/healthz', headers: {}, dryRun: false });
    expect([health.status, health.text]).toEqual([200, 'ok']);
  });

  it('the final lists hold exactly what the successful writes imply', async () => {
    // Deleted namespaces (and their content) are excluded: their cleanup runs in the background.
    const listed = new Map<string, number>();
    for (const kind of FUZZ_KINDS) {
      for (const obj of await listAll(server, kind)) {
        const m = obj.metadata ?? {};
        const key = ObjectModel.key(obj.apiVersion!, obj.kind!, m.namespace, m.name!);
        // A Service's IPAddress is the server's own write (its cluster IP allocator's), not the fuzz's.
        if (!model.objects.has(key) && m.labels?.[MANAGED_BY] === 'ipallocator.k8s.io') continue;
        listed.set(key, Number(m.resourceVersion));
      }
    }
    const mismatches: string[] = [];
    for (const [key, rv] of listed) {
      if (model.excluded(key)) continue;
      const known = model.objects.get(key);
      if (!known?.exists)
        mismatches.push(
          `${key}@${rv} is listed, but the writes said ${known ? `deleted @${known.rv}` : 'nothing'}`,
        );
      else if (known.rv !== rv)
        mismatches.push(`${key} is listed @${rv}, the last write answered @${known.rv}`);
    }
    for (const [key, known] of model.objects) {
      if (known.exists && !model.excluded(key) && !listed.has(key))
        mismatches.push(`${key}@${known.rv} is missing`);
    }
    expect(mismatches).toEqual([]);
    expect(listed.size).toBeGreaterThan(0);
  });
});
