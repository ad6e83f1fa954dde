/**
 * A write's answer text is made from the bytes just stored (storage/answer-text.ts) instead of a
 * second serialization: it must be exactly `JSON.stringify` of the answer object, for any object,
 * and a real server's answers must parse to what a read returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/protocol/events.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { answerText, encodeObject, rememberAnswerText } from '../../../src/server/registry/answer-text.js';

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ['apiVersion', 'kind', 'metadata', 'spec', 'status', '0', '12', 'é', 'a"b', 'data'];

function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 2 || r < 0.3) {
    return [undefined, null, true, 0, -0, 1.5, 'x', 'ü\n"', 1e21][Math.floor(rand() * 9)];
  }
  if (r < 0.5) return Array.from({ length: Math.floor(rand() * 3) }, () => randomValue(rand, depth + 1));
  return randomObject(rand, depth + 1);
}

function randomObject(rand: () => number, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of KEYS) if (rand() < 0.4) out[k] = randomValue(rand, depth);
  return out;
}

describe('answer text', () => {
  it('encodes any object exactly as JSON.stringify does, and knows where metadata ends', () => {
    const rand = prng(7);
    let withMeta = 0;
    for (let i = 0; i < 2000; i++) {
      const obj = randomObject(rand, 0);
      if (rand() < 0.7) obj.metadata = rand() < 0.2 ? {} : randomObject(rand, 1);
      const { value, metaEnd } = encodeObject(obj);
      expect(value).toBe(JSON.stringify(obj));
      if (metaEnd >= 0) {
        withMeta++;
        expect(value[metaEnd]).toBe('}');
        // The answer: the same object with resourceVersion last in its metadata.
        const meta = obj.metadata as Record<string, unknown>;
        const answer = { ...obj, metadata: { ...meta, resourceVersion: '42' } } as KubeObject;
        rememberAnswerText(answer, { value, metaEnd }, '42');
        expect(answerText(answer)).toBe(JSON.stringify(answer));
      }
    }
    expect(withMeta).toBeGreaterThan(1000);
  });
});

describe('a real server answers writes with the stored object', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecureHttp: true, insecureNoAuth: true });
  });
  afterAll(async () => {
    await server.close();
  });

  const call = async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': type },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };

  it('create, update, patch and a delete that only marks answer what a read returns', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    const created = await call('POST', base, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'answer', labels: { a: 'b' }, finalizers: ['example.com/hold'] },
      data: { k: 'v', q: 'ü "quoted"\n' },
    });
    expect(created.status).toBe(201);
    const read = async () => (await call('GET', `${base}/answer`)).text;
    expect(JSON.parse(created.text)).toEqual(JSON.parse(await read()));
    expect(created.text).toBe(await read());

    const current = JSON.parse(created.text);
    const updated = await call('PUT', `${base}/answer`, { ...current, data: { k: 'w' } });
    expect(updated.status).toBe(200);
    expect(updated.text).toBe(await read());

    const patched = await call(
      'PATCH',
      `${base}/answer`,
      { data: { x: 'y' } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(patched.text).toBe(await read());

    const marked = await call('DELETE', `${base}/answer`);
    expect(marked.status).toBe(200);
    expect(JSON.parse(marked.text).metadata.deletionTimestamp).toBeDefined();
    expect(marked.text).toBe(await read());
  });
});
