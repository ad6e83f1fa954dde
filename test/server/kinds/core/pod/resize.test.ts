/**
 * podResizeStrategy and ValidatePodResize as resize.ts applies them: the spec a resize keeps and
 * the messages the reference answered for the same writes (test/fidelity/cases/pod-resize.yaml).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../src/protocol/events.js';
import { defaultPod } from '../../../../../src/server/kinds/core/pod/defaults.js';
import {
  computePodQOS,
  resizedSpec,
  semanticEqual,
  validatePodResize,
} from '../../../../../src/server/kinds/core/pod/resize.js';
import { validatePod } from '../../../../../src/server/kinds/core/pod/validation.js';

function pod(resources: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject {
  const p: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'ns' },
    spec: { containers: [{ name: 'c', image: 'nginx', resources }], ...extra },
  };
  defaultPod(p);
  return p;
}

const text = (errors: { field: string; message: string }[]) => errors.map((e) => `${e.field}: ${e.message}`);
const guaranteed = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } };

describe('pods/resize', () => {
  it('keeps the old spec but the resources and resize policies sent', () => {
    const old = pod({ requests: { cpu: '100m' } }).spec as Record<string, unknown>;
    const sent = structuredClone(old);
    const c = (sent.containers as Record<string, unknown>[])[0];
    c.image = 'busybox';
    c.resources = { requests: { cpu: '200m' } };
    sent.activeDeadlineSeconds = 5;
    const kept = resizedSpec(sent, old);
    expect(kept.activeDeadlineSeconds).toBeUndefined();
    expect((kept.containers as Record<string, unknown>[])[0]).toMatchObject({
      image: 'nginx',
      resources: { requests: { cpu: '200m' } },
    });
  });

  it('computes the QoS class from pod-level resources when set', () => {
    expect(computePodQOS(pod(guaranteed).spec as Record<string, unknown>)).toBe('Guaranteed');
    const spec = pod({}, { resources: { requests: { cpu: '1' } } }).spec as Record<string, unknown>;
    expect(computePodQOS(spec)).toBe('Burstable');
  });

  it('compares quantities by value', () => {
    expect(semanticEqual({ cpu: '0.2' }, { cpu: '200m' })).toBe(true);
    expect(semanticEqual({ a: [] }, {})).toBe(true);
    expect(semanticEqual({ image: 'a' }, { image: 'b' })).toBe(false);
  });

  it('refuses removed limits and a QoS change', () => {
    const old = pod(guaranteed);
    const now = pod({ requests: guaranteed.requests });
    // The strategy keeps the old status, whose class the message prints.
    now.status = old.status;
    expect(text(validatePodResize(now, old))).toEqual([
      'spec: Invalid value: "Guaranteed": Pod QOS Class may not change as a result of resizing',
      'spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed',
    ]);
  });

  it('refuses other resources, windows and static pods', () => {
    const old = pod({ requests: { cpu: '100m', 'ephemeral-storage': '1Gi' } });
    const now = pod({ requests: { cpu: '100m', 'ephemeral-storage': '2Gi' } });
    expect(text(validatePodResize(now, old))).toEqual([
      'spec: Forbidden: only cpu and memory resources are mutable',
    ]);
    const win = pod({}, { os: { name: 'windows' } });
    expect(text(validatePodResize(win, win))).toEqual(['[]: Forbidden: windows pods cannot be resized']);
    const mirror = pod({});
    mirror.metadata!.annotations = { 'kubernetes.io/config.mirror': 'x' };
    expect(text(validatePodResize(mirror, mirror))).toEqual(['[]: Forbidden: static pods cannot be resized']);
  });

  it('accepts a cpu change', () => {
    expect(validatePodResize(pod({ requests: { cpu: '200m' } }), pod({ requests: { cpu: '100m' } }))).toEqual(
      [],
    );
  });

  it('validates resize policies at create (validateResizePolicy, the init containers rule)', () => {
    const p = pod({}, { restartPolicy: 'Never' });
    const spec = p.spec as Record<string, unknown>;
    (spec.containers as Record<string, unknown>[])[0].resizePolicy = [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: '', restartPolicy: '' },
    ];
    spec.initContainers = [
      { name: 'i', image: 'b', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] },
    ];
    defaultPod(p);
    expect(text(validatePod(p))).toEqual([
      'spec.containers[0].resizePolicy[1]: Duplicate value: "cpu"',
      'spec.containers[0].resizePolicy: Required value',
      `spec.containers[0].resizePolicy: Invalid value: "": must be 'NotRequired' when pod \`restartPolicy\` is 'Never'`,
      `spec.initContainers[0].resizePolicy: Invalid value: "RestartContainer": must be 'NotRequired' when pod \`restartPolicy\` is 'Never'`,
      `spec.initContainers[0].resizePolicy[0].restartPolicy: Invalid value: "RestartContainer": must not be set to 'RestartContainer' for non-sidecar initContainers`,
    ]);
  });
});
