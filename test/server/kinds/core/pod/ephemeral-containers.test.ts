/**
 * ValidatePodEphemeralContainersUpdate as ephemeral-containers.ts applies it: the messages the
 * reference answered for the same writes (test/fidelity/cases/pod-ephemeral-resize.yaml).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../src/protocol/events.js';
import { defaultPod } from '../../../../../src/server/kinds/core/pod/defaults.js';
import {
  validateEphemeralContainers,
  validatePodEphemeralContainersUpdate,
} from '../../../../../src/server/kinds/core/pod/ephemeral-containers.js';

function pod(ephemeralContainers: unknown[] = []): KubeObject {
  const p: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      volumes: [{ name: 'v', emptyDir: {} }],
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [{ name: 'c', image: 'nginx' }],
      ephemeralContainers,
    },
  };
  defaultPod(p);
  return p;
}

const text = (errors: { field: string; message: string }[]) => errors.map((e) => `${e.field}: ${e.message}`);

describe('ephemeral containers', () => {
  it('reports the target, the volume, the fields an ephemeral container may not set and subPath', () => {
    const spec = pod([
      {
        name: 'dbg',
        image: 'busybox',
        ports: [{ containerPort: 80 }],
        targetContainerName: 'nope',
        volumeMounts: [{ name: 'w', mountPath: '/x', subPath: 'a' }],
        lifecycle: { preStop: { exec: { command: ['true'] } } },
      },
    ]).spec as Record<string, unknown>;
    expect(text(validateEphemeralContainers(spec))).toEqual([
      'spec.ephemeralContainers[0].volumeMounts[0].name: Not found: "w"',
      'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container',
    ]);
  });

  it('wants names unique across every container, and may target an init container', () => {
    const spec = pod([
      { name: 'c', image: 'busybox' },
      { name: 'x', image: 'busybox', targetContainerName: 'init' },
    ]).spec as Record<string, unknown>;
    expect(text(validateEphemeralContainers(spec))).toEqual([
      'spec.ephemeralContainers[0].name: Duplicate value: "c"',
    ]);
  });

  it('refuses to remove an existing one, and accepts an addition', () => {
    const before = pod([{ name: 'dbg', image: 'busybox' }]);
    expect(text(validatePodEphemeralContainersUpdate(pod([]), before))).toEqual([
      'spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be removed\n',
    ]);
    const added = pod([
      { name: 'dbg', image: 'busybox' },
      { name: 'two', image: 'busybox' },
    ]);
    expect(validatePodEphemeralContainersUpdate(added, before)).toEqual([]);
  });

  it('refuses a static pod', () => {
    const before = pod();
    before.metadata!.annotations = { 'kubernetes.io/config.mirror': 'x' };
    expect(text(validatePodEphemeralContainersUpdate(pod([{ name: 'd', image: 'b' }]), before))).toEqual([
      ': Forbidden: static pods do not support ephemeral containers',
    ]);
  });
});
