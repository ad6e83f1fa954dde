import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { validateCELExpression } from '../../../../src/server/kinds/resource/cel.js';
import {
  validateBindingParameters,
  validateCapacityPolicy,
  validateVersionValue,
} from '../../../../src/server/kinds/resource/device-extras.js';
import { deviceClassKind, validateDeviceClass } from '../../../../src/server/kinds/resource/deviceclass.js';
import {
  defaultDeviceTaintRule,
  deviceTaintRuleKind,
  validateDeviceTaintRule,
} from '../../../../src/server/kinds/resource/devicetaintrule.js';
import {
  defaultResourceClaim,
  resourceClaimKind,
  validateResourceClaim,
  validateResourceClaimStatus,
} from '../../../../src/server/kinds/resource/resourceclaim.js';
import {
  defaultResourceClaimTemplate,
  validateResourceClaimTemplate,
} from '../../../../src/server/kinds/resource/resourceclaimtemplate.js';
import {
  defaultResourceSlice,
  resourceSliceKind,
  validateResourceSlice,
} from '../../../../src/server/kinds/resource/resourceslice.js';

const texts = (errors: Array<{ field: string; message: string }>) =>
  errors.map((e) => `${e.field}: ${e.message}`);
const NOW = Date.parse('2026-01-01T00:01:00Z');
const CREATED = { name: 'x', creationTimestamp: '2026-01-01T00:00:00Z' };

const claim = (spec: Record<string, unknown>): KubeObject => {
  const o = { metadata: { name: 'c', namespace: 'ns' }, spec } as KubeObject;
  defaultResourceClaim(o);
  return o;
};

describe('ResourceClaim', () => {
  it('defaults one device of a request and the tolerations operator', () => {
    const o = claim({
      devices: {
        requests: [
          { name: 'a', exactly: { deviceClassName: 'c', tolerations: [{ key: 'k' }] } },
          { name: 'b', firstAvailable: [{ name: 's', deviceClassName: 'c', allocationMode: 'All' }] },
        ],
      },
    });
    expect(o.spec).toEqual({
      devices: {
        requests: [
          {
            name: 'a',
            exactly: {
              deviceClassName: 'c',
              tolerations: [{ key: 'k', operator: 'Equal' }],
              allocationMode: 'ExactCount',
              count: 1,
            },
          },
          { name: 'b', firstAvailable: [{ name: 's', deviceClassName: 'c', allocationMode: 'All' }] },
        ],
      },
    });
    expect(o.status).toEqual({});
    expect(claim({}).spec).toEqual({ devices: { requests: null } });
    expect(validateResourceClaim(o)).toEqual([]);
  });

  it('reports handwritten errors first, declarative ones after', () => {
    const o = claim({
      devices: {
        requests: [
          { name: 'gpu' },
          { name: 'gpu', exactly: { deviceClassName: 'c', allocationMode: 'Some' } },
        ],
      },
    });
    expect(texts(validateResourceClaim(o))).toEqual([
      'spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required',
      'spec.devices.requests[1]: Duplicate value: {"name":"gpu","exactly":{"deviceClassName":"c","allocationMode":"Some"}}',
      'spec.devices.requests[1].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount"',
    ]);
  });

  it('keeps the spec and the allocation once set', () => {
    const old = claim({ devices: { requests: [{ name: 'a', exactly: { deviceClassName: 'c' } }] } });
    const next = claim({ devices: { requests: [{ name: 'b', exactly: { deviceClassName: 'c' } }] } });
    expect(texts(validateResourceClaim(next, old))).toEqual([
      'spec: Invalid value: null: field is immutable',
    ]);
    const result = { request: 'a', driver: 'd.example.com', pool: 'p', device: 'dev' };
    const allocated = { ...old, status: { allocation: { devices: { results: [result] } } } } as KubeObject;
    expect(validateResourceClaimStatus(allocated, old)).toEqual([]);
    const moved = structuredClone(allocated);
    (moved.status as { allocation: { devices: { results: Array<{ device: string }> } } }).allocation.devices
      .results[0]!.device = 'other';
    expect(texts(validateResourceClaimStatus(moved, allocated))).toEqual([
      'status.allocation: Invalid value: null: field cannot be modified once set',
    ]);
  });

  it('prints the state', () => {
    const o = claim({});
    o.metadata = CREATED;
    expect(resourceClaimKind.columns.map((c) => c.cell(o, NOW))).toEqual(['pending', '60s']);
    o.status = { allocation: {}, reservedFor: [{ resource: 'pods', name: 'p', uid: '1' }] };
    expect(resourceClaimKind.columns[0]!.cell(o, NOW)).toBe('allocated,reserved');
  });
});

describe('ResourceClaimTemplate', () => {
  it('prints the internal spec in its immutability error', () => {
    const make = (labels: Record<string, string>) => {
      const o = {
        metadata: { name: 't' },
        spec: {
          metadata: { labels },
          spec: { devices: { requests: [{ name: 'a', exactly: { deviceClassName: 'c' } }] } },
        },
      } as KubeObject;
      defaultResourceClaimTemplate(o);
      return o;
    };
    expect(texts(validateResourceClaimTemplate(make({ a: 'b' }), make({ a: 'c' })))).toEqual([
      'spec: Invalid value: {"labels":{"a":"b"},"Spec":{"Devices":{"Requests":[{"Name":"a","Exactly":{"DeviceClassName":"c","Selectors":null,"AllocationMode":"ExactCount","Count":1,"AdminAccess":null,"Tolerations":null,"Capacity":null,"DerivedAttributes":null},"FirstAvailable":null}],"Constraints":null,"Config":null}}}: field is immutable',
    ]);
  });
});

describe('DeviceClass', () => {
  it('checks selectors, config and the extended resource name', () => {
    const o = {
      metadata: { name: 'gpu' },
      spec: {
        selectors: [{}],
        config: [{ opaque: { driver: 'd.example.com' } }],
        extendedResourceName: 'gpu',
      },
    } as KubeObject;
    expect(texts(validateDeviceClass(o))).toEqual([
      'spec.selectors[0].cel: Required value',
      'spec.config[0].opaque.parameters: Required value',
      'spec.extendedResourceName: Invalid value: "gpu": a name must be a domain-prefixed path, such as \'example.com/my-prop\'',
    ]);
    expect(deviceClassKind.columns.map((c) => c.cell({ metadata: CREATED } as KubeObject, NOW))).toEqual([
      '60s',
    ]);
  });
});

describe('ResourceSlice', () => {
  it('times taints, writes the pool and wants one node selection', () => {
    const o = {
      metadata: { name: 's' },
      spec: { devices: [{ name: 'd', taints: [{ key: 'k', effect: 'None' }] }] },
    } as KubeObject;
    defaultResourceSlice(o, NOW);
    expect(o.spec).toMatchObject({
      driver: '',
      pool: { name: '', generation: 0, resourceSliceCount: 0 },
      devices: [{ taints: [{ timeAdded: '2026-01-01T00:01:00Z' }] }],
    });
    expect(texts(validateResourceSlice(o))).toEqual([
      'spec.driver: Required value',
      'spec.pool.name: Required value',
      'spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero',
      'spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required',
    ]);
  });

  it('selects by node, driver and pool, and prints them', () => {
    const o = {
      metadata: CREATED,
      spec: { nodeName: 'n', driver: 'd', pool: { name: 'p' } },
    } as KubeObject;
    expect(resourceSliceKind.fields['spec.nodeName']!(o)).toBe('n');
    expect(resourceSliceKind.fields['spec.pool.name']!(o)).toBe('p');
    expect(resourceSliceKind.columns.map((c) => c.cell(o, NOW))).toEqual(['n', 'd', 'p', '60s']);
  });
});

describe('DeviceTaintRule', () => {
  it('requires a key and an effect and prints the taint', () => {
    const o = { metadata: CREATED, spec: {} } as KubeObject;
    defaultDeviceTaintRule(o);
    expect(o.status).toEqual({});
    expect(texts(validateDeviceTaintRule(o))).toEqual([
      'spec.taint.key: Invalid value: "": name part must be non-empty',
      "spec.taint.key: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.taint.effect: Required value',
    ]);
    const t = {
      metadata: CREATED,
      spec: { taint: { key: 'k', value: 'v', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:30Z' } },
    } as KubeObject;
    expect(deviceTaintRuleKind.columns.map((c) => c.cell(t, NOW))).toEqual([
      'k',
      'v',
      'NoSchedule',
      '30s',
      '60s',
    ]);
  });
});

describe('CEL selectors and counters', () => {
  it('refuses an empty expression and an undeclared variable, accepts device', () => {
    expect(texts(validateCELExpression('device.driver == "x"', 'p'))).toEqual([]);
    expect(texts(validateCELExpression('nodes.size() > 1', 'p'))).toEqual([
      "p: Invalid value: \"nodes.size() > 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nodes' (in container '')\n | nodes.size() > 1\n | ^",
    ]);
    expect(validateCELExpression('', 'p')[0]!.message).toContain("Syntax error: mismatched input '<EOF>'");
  });

  it('reports counter sets declaratively, duplicates first', () => {
    const o = {
      metadata: { name: 's' },
      spec: {
        driver: 'd.example.com',
        allNodes: true,
        pool: { name: 'p', resourceSliceCount: 1 },
        sharedCounters: [
          { name: 'ok', counters: { c: { value: '1' } } },
          { name: 'ok', counters: {} },
        ],
      },
    } as KubeObject;
    expect(texts(validateResourceSlice(o))).toEqual([
      'spec.sharedCounters[1]: Duplicate value: {"name":"ok","counters":{}}',
      'spec.sharedCounters[1].counters: Required value',
    ]);
  });
});

describe('device extras', () => {
  it('checks binding conditions both ways and a policy only for shared devices', () => {
    const [hand, dv] = validateBindingParameters({ bindingFailureConditions: ['Failed'] }, 'd');
    expect(texts(hand)).toEqual([
      'd.bindingConditions: Invalid value: null: bindingConditions are required to use bindingFailureConditions',
    ]);
    expect(dv).toEqual([]);
    expect(texts(validateCapacityPolicy({ requestPolicy: { default: '1' } }, false, 'c'))).toEqual([
      'c.requestPolicy: Forbidden: allowMultipleAllocations must be true',
    ]);
    expect(validateVersionValue('1.2.3-rc.1', 'v')).toEqual([]);
  });
});
