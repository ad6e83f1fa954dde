import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import { Informer, objectKey } from '../../../src/client/informer/informer.js';
import {
  cacheMeta,
  decodeListLazily,
  decodeWatchLineLazily,
  isUndecoded,
} from '../../../src/client/watch/lazy-decode.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { JsonLinesDecoder, JsonLinesError } from '../../../src/protocol/jsonlines.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { ev, listOf, obj, ScriptedSource, ScriptedStream, settle } from '../../helpers/scripted-source.js';
import { waitUntil } from '../../helpers/wait.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const line = (s: string) => decodeWatchLineLazily(bytes(s), 0) as { type: string; object: KubeObject };

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-1',
    namespace: 'demo',
    labels: { app: 'web', note: 'caf\u00e9 \u2603 "quoted" \\ back' },
    annotations: { 'a/b': '{"nested":["json",1]}' },
    resourceVersion: '42',
  },
  spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }], nodeName: 'n1' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }] },
};

describe('lazy watch lines', () => {
  it('reads the key and resourceVersion without parsing; the first property read parses, once', () => {
    const e = line(JSON.stringify({ type: 'MODIFIED', object: pod }));
    expect(e.type).toBe('MODIFIED');
    expect(cacheMeta(e.object)).toEqual({ name: 'web-1', namespace: 'demo', resourceVersion: '42' });
    expect(objectKey(e.object)).toBe('demo/web-1');
    expect(isUndecoded(e.object)).toBe(true);
    expect(e.object.metadata?.labels).toEqual(pod.metadata.labels);
    expect(isUndecoded(e.object)).toBe(false);
    expect(e.object.metadata).toBe(e.object.metadata);
  });

  it('behaves as the parsed object: keys, in, spread, JSON, inspect, writes, prototype', () => {
    const { object } = line(JSON.stringify({ type: 'ADDED', object: pod }));
    expect(Object.keys(object)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect('spec' in object).toBe(true);
    expect({ ...object }).toEqual(pod);
    expect(object).toEqual(pod);
    expect(JSON.parse(JSON.stringify(object))).toEqual(pod);
    expect(inspect(object, { depth: 0 })).toContain("kind: 'Pod'");
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    (object as { extra?: number }).extra = 1;
    expect((object as { extra?: number }).extra).toBe(1);
    delete (object as { extra?: number }).extra;
    expect('extra' in object).toBe(false);
  });

  it('reads the metadata of the parsed object once it is parsed (a handler may have changed it)', () => {
    const { object } = line(JSON.stringify({ type: 'MODIFIED', object: pod }));
    object.metadata!.resourceVersion = '43';
    expect(cacheMeta(object)?.resourceVersion).toBe('43');
  });

  it('parses BOOKMARK and ERROR events, and unknown types, at once', () => {
    for (const event of [
      { type: 'BOOKMARK', object: { kind: 'Pod', metadata: { resourceVersion: '9' } } },
      { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } },
      { type: 'SOMETHING', object: pod },
    ]) {
      const e = line(JSON.stringify(event));
      expect(isUndecoded(e.object)).toBe(false);
      expect(e).toEqual(event);
    }
  });

  it('accepts any member order, whitespace, escapes and non-ASCII text, as JSON.parse does', () => {
    const texts = [
      `{"object":${JSON.stringify(pod)},"type":"DELETED"}`,
      ` { "type" : "ADDED" ,\t"object" : ${JSON.stringify(pod, null, 2)} } `,
      '{"type":"ADDED","object":{"metadata":{"na\\u006de":"x\\"y","namespace":"n\\u00e9","resourceVersion":"7"}}}',
      '{"type":"ADDED","object":{"metadata":{"annotations":{"x":"\u00e9\u00e9\u00e9"},"name":"\u00e9-pod","namespace":"ns"}}}',
      '{"type":"ADDED","object":{"kind":"Pod","spec":{"a":[1,{"b":"}"}]},"metadata":{"name":"late"}}}',
      '{"type":"ADDED","object":{"kind":"Pod"}}',
    ];
    for (const text of texts) {
      const e = line(text);
      const parsed = JSON.parse(text) as { type: string; object: KubeObject };
      expect(isUndecoded(e.object)).toBe(true);
      const want = parsed.object.metadata;
      expect(cacheMeta(e.object)).toEqual({
        name: want?.name,
        namespace: want?.namespace,
        resourceVersion: want?.resourceVersion,
      });
      expect(e).toEqual(parsed);
    }
  });

  it('keys by the first occurrence of a duplicated key (API servers never write one)', () => {
    const text = '{"type":"ADDED","object":{"metadata":{"name":"a","name":"b","namespace":"n"}}}';
    const e = line(text);
    expect(objectKey(e.object)).toBe('n/a');
    expect(e.object.metadata?.name).toBe('b');
  });

  it('parses eagerly when a metadata field is not a string', () => {
    const text = '{"type":"ADDED","object":{"metadata":{"name":null,"namespace":"ns"}}}';
    const e = line(text);
    expect(isUndecoded(e.object)).toBe(false);
    expect(e).toEqual(JSON.parse(text));
  });

  it('refuses a structurally broken line at once, with its offset', () => {
    for (const text of [
      '{"type":"ADDED","object":{"metadata":{"name":"a"}',
      '{"type":"ADDED","object":{"metadata":{"name":"a}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a"}}} trailing',
      '{"type":"ADDED" "object":{}}',
    ]) {
      let err: unknown;
      try {
        decodeWatchLineLazily(bytes(text), 100);
      } catch (e) {
        err = e;
      }
      expect(err, text).toBeInstanceOf(JsonLinesError);
      expect((err as JsonLinesError).offset).toBe(100);
    }
  });

  it('a body broken inside (never sent by a server) throws JsonLinesError on the first read', () => {
    const e = line('{"type":"ADDED","object":{"metadata":{"name":"a","namespace":"n"},"spec":{"x" 1}}}');
    expect(objectKey(e.object)).toBe('n/a');
    expect(() => e.object.spec).toThrow(JsonLinesError);
  });

  it('works behind a JsonLinesDecoder, with lines split anywhere across chunks', () => {
    const text = `${JSON.stringify({ type: 'ADDED', object: pod })}\n\n${JSON.stringify({
      type: 'BOOKMARK',
      object: { metadata: { resourceVersion: '50' } },
    })}\n`;
    const all = bytes(text);
    for (const cut of [1, 7, 100, all.length - 3]) {
      const decoder = new JsonLinesDecoder({ decodeLine: decodeWatchLineLazily });
      const out = [...decoder.push(all.slice(0, cut)), ...decoder.push(all.slice(cut)), ...decoder.end()];
      expect(out).toEqual(
        text
          .trim()
          .split(/\n+/)
          .map((l) => JSON.parse(l)),
      );
      expect(objectKey((out[0] as { object: KubeObject }).object)).toBe('demo/web-1');
    }
  });
});

describe('lazy lists', () => {
  it('decodes the list envelope and keeps items lazy', () => {
    const other = { ...pod, metadata: { ...pod.metadata, name: 'web-2', resourceVersion: '43' } };
    const list = { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '50', continue: 'c' } };
    const text = JSON.stringify({ ...list, items: [pod, other] });
    const decoded = decodeListLazily(bytes(text));
    expect(decoded.metadata).toEqual(list.metadata);
    expect(decoded.items.map(objectKey)).toEqual(['demo/web-1', 'demo/web-2']);
    expect(decoded.items.every(isUndecoded)).toBe(true);
    expect(decoded).toEqual(JSON.parse(text));
  });

  it('handles empty and missing items, and falls back to JSON.parse (and its error) otherwise', () => {
    expect(decodeListLazily(bytes('{"metadata":{},"items":[]}'))).toEqual({ metadata: {}, items: [] });
    expect(decodeListLazily(bytes('{"metadata":{},"items":null}'))).toEqual({ metadata: {}, items: null });
    expect(decodeListLazily(bytes('{"items":[1,2]}'))).toEqual({ items: [1, 2] });
    expect(() => decodeListLazily(bytes('{"items":[{"metadata":{}}'))).toThrow(SyntaxError);
  });
});

describe('an informer with lazyDecode against a real server', () => {
  let server: RunningServer | undefined;
  let kube: KubeClient | undefined;
  afterEach(async () => {
    await kube?.close();
    await server?.close();
  });

  it('syncs and follows changes; handlers that only take the key never parse', async () => {
    server = await startServer({
      disableAdmissionPlugins: ['ServiceAccount'],
      insecureHttp: true,
      insecureNoAuth: true,
      compactionInterval: 0,
    });
    const credentials = {
      authorization: async () => undefined,
      clientCertificate: async () => undefined,
      invalidate() {},
    };
    kube = new KubeClient(
      { server: server.url, insecureSkipTlsVerify: false, namespace: 'lazy', credentials },
      { qps: 0 },
    );
    await kube.resource('namespaces').create({ metadata: { name: 'lazy' } });
    const pods = kube.resource('pods', 'lazy');
    const spec = { containers: [{ name: 'c', image: 'nginx' }] };
    await pods.create({ metadata: { name: 'a', labels: { v: '1' } }, spec } as KubeObject);
    const informer = kube.informer('pods', { namespace: 'lazy' }, { lazyDecode: true, pageSize: 0 });
    const seen: KubeObject[] = [];
    informer.on({ add: (o) => void seen.push(o), update: (_, o) => void seen.push(o) });
    await informer.synced();
    await pods.patch('a', { metadata: { labels: { v: '2' } } });
    await pods.create({ metadata: { name: 'b' }, spec } as KubeObject);
    await waitUntil(() => seen.length >= 3, 'the add, the update and the second add', 5000);
    expect(seen.map(objectKey)).toEqual(['lazy/a', 'lazy/a', 'lazy/b']);
    expect(seen.every(isUndecoded)).toBe(true);
    expect(informer.byIndex('namespace', 'lazy').map(objectKey).sort()).toEqual(['lazy/a', 'lazy/b']);
    const a = informer.get('lazy/a')!;
    expect(a.metadata?.labels).toEqual({ v: '2' });
    expect(a).toEqual(await pods.get('a'));
    expect(informer.watcher.resourceVersion).toBe(cacheMeta(informer.get('lazy/b')!)?.resourceVersion);
    await informer.stop();
  });
});

// Not lazy decoding, but the other half of the same speed-up: handlers are called
// synchronously while they are synchronous (no promise per event); these pin down
// that the order stays the one the informer promises.
describe('Informer handler delivery', () => {
  function setup() {
    const source = new ScriptedSource();
    const informer = new Informer(source, { clock: new ManualClock(), random: () => 0 });
    const stream = new ScriptedStream();
    source.onList(listOf('10', [obj('a', '1')])).onWatch(stream);
    return { informer, stream };
  }

  it('mixes synchronous and async handlers without reordering events or handlers', async () => {
    const { informer, stream } = setup();
    const log: string[] = [];
    informer.on({ update: (_, o) => void log.push(`sync ${o.metadata?.resourceVersion}`) });
    informer.on({
      update: async (_, o) => {
        await new Promise((r) => setTimeout(r, 5));
        log.push(`async ${o.metadata?.resourceVersion}`);
      },
    });
    informer.on({ update: (_, o) => void log.push(`last ${o.metadata?.resourceVersion}`) });
    await informer.synced();
    stream.push(ev.modified(obj('a', '2')), ev.modified(obj('a', '3')));
    await waitUntil(() => log.length >= 6, 'six handler calls');
    expect(log).toEqual(['sync 2', 'async 2', 'last 2', 'sync 3', 'async 3', 'last 3']);
    await informer.stop();
  });

  it('a handler added from inside a handler gets its adds after the current notification, and not that one', async () => {
    const { informer, stream } = setup();
    const log: string[] = [];
    informer.on({
      update: (_, o) => {
        log.push(`first ${o.metadata?.name}@${o.metadata?.resourceVersion}`);
        if (o.metadata?.resourceVersion === '2')
          informer.on({
            add: (x) => void log.push(`late add ${x.metadata?.name}`),
            update: (_, x) => void log.push(`late update ${x.metadata?.resourceVersion}`),
          });
      },
    });
    informer.on({ update: (_, o) => void log.push(`second ${o.metadata?.resourceVersion}`) });
    await informer.synced();
    stream.push(ev.modified(obj('a', '2')), ev.modified(obj('a', '3')));
    await settle();
    expect(log).toEqual(['first a@2', 'second 2', 'late add a', 'first a@3', 'second 3', 'late update 3']);
    await informer.stop();
  });
});
