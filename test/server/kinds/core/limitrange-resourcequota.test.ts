import { describe, expect, it } from 'vitest';
import { defaultLimitRange, validateLimitRange } from '../../../../src/server/kinds/core/limitrange.js';
import {
  resourceQuotaKind,
  validateResourceQuota,
  validateResourceQuotaUpdate,
} from '../../../../src/server/kinds/core/resourcequota.js';

const messages = (errs: { field: string; message: string }[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('LimitRange', () => {
  it("defaults a Container item's limit to its max and its request to the limit, else the min", () => {
    const obj = {
      spec: {
        limits: [
          { type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' } },
          { type: 'Pod', max: { cpu: '1' } },
        ],
      },
    };
    defaultLimitRange(obj);
    expect(obj.spec.limits[0]).toMatchObject({
      default: { cpu: '2' },
      defaultRequest: { cpu: '2', memory: '1Mi' },
    });
    expect(obj.spec.limits[1]).toEqual({ type: 'Pod', max: { cpu: '1' } });
  });

  it('checks bounds with the reference messages', () => {
    const errs = validateLimitRange({
      metadata: { name: 'l' },
      spec: {
        limits: [
          {
            type: 'Container',
            max: { memory: '1Gi' },
            min: { memory: '512Mi' },
            maxLimitRequestRatio: { memory: '3' },
          },
        ],
      },
    });
    expect(messages(errs)).toEqual([
      'spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
    ]);
    expect(
      messages(
        validateLimitRange({
          metadata: { name: 'l' },
          spec: { limits: [{ type: 'Pod', default: { cpu: '1' } }] },
        }),
      ),
    ).toEqual(["spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"]);
  });
});

describe('ResourceQuota', () => {
  it('validates names, amounts and scopes', () => {
    const errs = validateResourceQuota({
      metadata: { name: 'q' },
      spec: {
        hard: { services: '1500m', 'limits.memory': '1Gi', 'requests.cpu': '1' },
        scopes: ['BestEffort'],
      },
    });
    expect(messages(errs)).toEqual([
      'spec.hard[services]: Invalid value: "1500m": must be an integer',
      'spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource',
    ]);
    expect(
      messages(validateResourceQuota({ metadata: { name: 'q' }, spec: { hard: { storage: '1' } } })),
    ).toEqual(['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota']);
    expect(
      messages(validateResourceQuotaUpdate({ spec: { scopes: ['Terminating'] } }, { spec: {} })),
    ).toEqual(['spec.scopes: Invalid value: ["Terminating"]: field is immutable']);
  });

  it('prints used/hard, limits apart', () => {
    const status = { hard: { pods: '10', 'limits.cpu': '2', 'requests.cpu': '1' }, used: { pods: '3' } };
    const cells = resourceQuotaKind.columns.map((c) => c.cell({ metadata: {}, status }, 0));
    expect(cells.slice(0, 2)).toEqual(['pods: 3/10, requests.cpu: 0/1', 'limits.cpu: 0/2']);
  });
});
