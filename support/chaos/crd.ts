/**
 * The chaos run's custom type: a small CustomResourceDefinition the world
 * installs before the informers start, so the schedules write objects of a
 * served custom type (spec, labels, and `status` through its subresource)
 * beside the built-in ones. It is stored like any object, so in kill,
 * restart and failover runs the servers that come back serve it again from
 * the store, as kube-apiserver does from etcd.
 */

import type { KubeClient } from '../../src/index.js';
import { pollUntil } from '../../src/process/index.js';

/** The custom type's resource name, as the client's RESTMapper resolves it. */
export const WIDGETS = 'widgets.chaos.example.com';

/**
 * `widgets.chaos.example.com`: namespaced, kind Widget, a `status`
 * subresource, and `.status.phase` as a selectable field (the field
 * selector the chaos informer uses, moved by the status writes). Not the
 * tests' Widget (test/helpers/widget.ts): its schema is what the schedules
 * write (a free `data` string, no defaults, no scale), so it stays its own.
 */
export const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: WIDGETS },
  spec: {
    group: 'chaos.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer', minimum: 1 }, data: { type: 'string' } },
                required: ['size'],
              },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
        subresources: { status: {} },
        selectableFields: [{ jsonPath: '.status.phase' }],
      },
    ],
  },
};

const CRDS = 'customresourcedefinitions';

/**
 * Creates the definition through `writers[0]` and waits until it is
 * Established and every writer's server lists the type (a second server
 * over the same etcd serves it once its own watch cache has the definition).
 */
export async function installWidgetCrd(writers: KubeClient[], timeoutMs = 10_000): Promise<void> {
  await writers[0].resource(CRDS).create(WIDGET_CRD);
  const established = await pollUntil(
    async () => {
      const crd = await writers[0].resource(CRDS).get(WIDGETS);
      const conditions = (crd as { status?: { conditions?: Array<{ type: string; status: string }> } }).status
        ?.conditions;
      return (conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
    },
    { timeoutMs, intervalMs: 5 },
  );
  if (!established) throw new Error(`${WIDGETS} was not Established within ${timeoutMs} ms`);
  for (const [i, w] of writers.entries()) {
    const served = await pollUntil(
      async () => {
        try {
          await w.resource(WIDGETS).inNamespace(undefined).list({ limit: 1 });
          return true;
        } catch {
          // Not served yet here (404 until this server's watch cache has the definition).
          return false;
        }
      },
      { timeoutMs, intervalMs: 5 },
    );
    if (!served) throw new Error(`server ${i} did not serve ${WIDGETS} within ${timeoutMs} ms`);
  }
}
