/**
 * The default ServiceCIDR `kubernetes` kube-apiserver keeps for its service IP range
 * (pkg/controlplane/controller/defaultservicecidr: the MultiCIDRServiceAllocator's default, GA):
 * created by the apiserver with the range as its one CIDR, then marked Ready by the
 * `kubernetes-service-cidr-controller` through a server-side apply of its status, as the
 * reference shows it.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { SERVICE_CIDR } from '../kinds/core/service/allocation.js';
import { findByPlural } from '../kinds/served/registry.js';
import { rfc3339 } from '../registry/meta.js';
import type { ObjectStorage } from '../registry/object-storage.js';

/** `DefaultServiceCIDRName`. */
const NAME = 'kubernetes';
const CONTROLLER = 'kubernetes-service-cidr-controller';

/** Creates the default ServiceCIDR when it is missing, and applies its Ready status. */
export async function writeDefaultServiceCIDR(objects: ObjectStorage): Promise<void> {
  const kind = findByPlural('networking.k8s.io', 'v1', 'servicecidrs');
  if (!kind) return;
  let created: KubeObject;
  try {
    created = await objects.create(
      kind,
      undefined,
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'ServiceCIDR',
        metadata: { name: NAME },
        spec: { cidrs: [SERVICE_CIDR] },
      },
      { owned: true, fieldManager: { manager: 'kube-apiserver' } },
    );
  } catch (err) {
    // Stored already (an earlier start, or another server over the same etcd).
    if (err instanceof StatusError && err.status.reason === 'AlreadyExists') return;
    throw err;
  }
  const time = created.metadata?.creationTimestamp ?? rfc3339(Date.now());
  await objects.guaranteedUpdate(
    kind,
    undefined,
    NAME,
    'status',
    { fieldManager: { manager: CONTROLLER, recorded: true } },
    (current) => {
      const meta = current.metadata ?? {};
      // The controller's apply entry sorts first: managedFields are ordered by operation.
      meta.managedFields = [
        {
          manager: CONTROLLER,
          operation: 'Apply',
          apiVersion: 'networking.k8s.io/v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:status': {
              'f:conditions': {
                'k:{"type":"Ready"}': {
                  '.': {},
                  'f:lastTransitionTime': {},
                  'f:message': {},
                  'f:status': {},
                  'f:type': {},
                },
              },
            },
          },
          subresource: 'status',
        },
        ...((meta.managedFields ?? []) as unknown[]),
      ] as never;
      current.status = {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: time,
            reason: '',
            message: 'Kubernetes default Service CIDR is ready',
          },
        ],
      };
      return current;
    },
  );
}
