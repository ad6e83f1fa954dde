/**
 * The two informers the behaviour suite holds to the same assertions:
 * client-node's own (`@kubernetes/client-node`, a devDependency) and the
 * drop-in (`src/client-node`), built from the same KubeConfig and the same
 * arguments, against one real server. A recorder logs every callback as
 * `verb name` so a test compares whole sequences.
 */
import * as k8s from '@kubernetes/client-node';
import * as dropIn from '../../src/client-node/index.js';
import type { RunningServer, ServerOptions } from '../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

/** What both informers are, as the suite uses them. */
export interface SubjectInformer {
  on(verb: string, cb: (arg?: any) => void): void;
  off(verb: string, cb: (arg?: any) => void): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  list(namespace?: string): ReadonlyArray<k8s.KubernetesObject>;
  get(name: string, namespace?: string): k8s.KubernetesObject | undefined;
}

/** One informer implementation. */
export interface Subject {
  name: 'client-node' | 'drop-in';
  /** `makeInformer(kc, path, listFn, labelSelector, fieldSelector)`. */
  makeInformer(
    kc: k8s.KubeConfig,
    path: string,
    listFn: () => Promise<any>,
    labelSelector?: string,
    fieldSelector?: string,
  ): SubjectInformer;
  /** `new ListWatch(path, new Watch(kc), listFn, autoStart, labelSelector, fieldSelector)`. */
  listWatch(
    kc: k8s.KubeConfig,
    path: string,
    listFn: () => Promise<any>,
    autoStart: boolean,
    labelSelector?: string,
    fieldSelector?: string,
  ): SubjectInformer;
}

export const CLIENT_NODE: Subject = {
  name: 'client-node',
  makeInformer: (kc, path, listFn, labelSelector, fieldSelector) =>
    // client-node's makeInformer has four parameters: a fifth is dropped (the difference a test names).
    (k8s.makeInformer as (...args: unknown[]) => SubjectInformer)(
      kc,
      path,
      listFn,
      labelSelector,
      fieldSelector,
    ),
  listWatch: (kc, path, listFn, autoStart, labelSelector, fieldSelector) =>
    new k8s.ListWatch(path, new k8s.Watch(kc), listFn, autoStart, labelSelector, fieldSelector),
};

export const DROP_IN: Subject = {
  name: 'drop-in',
  makeInformer: (kc, path, listFn, labelSelector, fieldSelector) =>
    dropIn.makeInformer(kc, path, listFn, labelSelector, fieldSelector),
  listWatch: (kc, path, listFn, autoStart, labelSelector, fieldSelector) =>
    new dropIn.ListWatch(path, new dropIn.Watch(kc), listFn, autoStart, labelSelector, fieldSelector),
};

export const SUBJECTS: Subject[] = [CLIENT_NODE, DROP_IN];

/** A server over TLS with a bearer token, its `demo` namespace, and client-node's KubeConfig for it. */
export interface Fixture {
  server: RunningServer;
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  /** Creates a pod in `demo` (or `namespace`). */
  createPod(
    name: string,
    extra?: { labels?: Record<string, string>; nodeName?: string; namespace?: string },
  ): Promise<any>;
  /** Replaces a pod's labels (a new resourceVersion). */
  relabel(name: string, labels: Record<string, string>, namespace?: string): Promise<void>;
  deletePod(name: string, namespace?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startFixture(opts: ServerOptions = {}): Promise<Fixture> {
  const server = await startTestServer({ insecureHttp: false, insecureNoAuth: false, ...opts });
  await ensureNamespace(server, 'demo');
  const kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const ok = async (what: string, p: Promise<{ status: number; text: string; body: any }>) => {
    const r = await p;
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
    return r.body;
  };
  return {
    server,
    kc,
    core,
    createPod: (name, extra = {}) =>
      ok(
        `create ${name}`,
        call(server, 'POST', `/api/v1/namespaces/${extra.namespace ?? 'demo'}/pods`, {
          body: pod(name, extra),
        }),
      ),
    relabel: async (name, labels, namespace = 'demo') => {
      await ok(
        `relabel ${name}`,
        call(server, 'PATCH', `/api/v1/namespaces/${namespace}/pods/${name}`, {
          body: { metadata: { labels } },
          headers: { 'content-type': 'application/merge-patch+json' },
        }),
      );
    },
    deletePod: async (name, namespace = 'demo') => {
      await ok(
        `delete ${name}`,
        call(server, 'DELETE', `/api/v1/namespaces/${namespace}/pods/${name}?gracePeriodSeconds=0`),
      );
    },
    close: () => server.close(),
  };
}

/** Every callback of an informer, as `verb name` (`connect`, `error <message>`), in order. */
export class Recorder {
  readonly log: string[] = [];
  readonly errors: unknown[] = [];

  constructor(informer: SubjectInformer, verbs = ['add', 'update', 'delete', 'connect', 'error']) {
    for (const verb of verbs) {
      informer.on(verb, (arg?: any) => {
        if (verb === 'error') this.errors.push(arg);
        const what =
          verb === 'connect' ? '' : verb === 'error' ? ` ${arg?.message ?? arg}` : ` ${arg?.metadata?.name}`;
        this.log.push(`${verb}${what}`);
      });
    }
  }

  /** The log without `connect` and `error` entries. */
  get objects(): string[] {
    return this.log.filter((l) => !l.startsWith('connect') && !l.startsWith('error'));
  }

  /** Waits until the log holds `entry` (`count` times). */
  async waitFor(entry: string, count = 1): Promise<void> {
    await waitUntil(
      () => this.log.filter((l) => l === entry).length >= count,
      () => `${entry} x${count} in ${JSON.stringify(this.log)}`,
    );
  }
}

/** Names of the objects in a cache listing, sorted. */
export function names(objects: ReadonlyArray<k8s.KubernetesObject>): string[] {
  return objects.map((o) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`).sort();
}
