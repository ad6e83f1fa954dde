import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { apiServiceKind } from '../../../../src/server/kinds/apiregistration/apiservice.js';

const apiService = (name: string, spec: Record<string, unknown>) =>
  ({ metadata: { name }, spec }) as KubeObject;

describe('APIService', () => {
  it('wants the name version.group and priorities in range', () => {
    const obj = apiService('v1.other', {
      group: 'example.com',
      version: 'v1',
      groupPriorityMinimum: 0,
      versionPriority: 1001,
    });
    expect(apiServiceKind.validate?.(obj).map((e) => `${e.field}: ${e.message}`)).toEqual([
      'metadata.name: Invalid value: "v1.other": must be `spec.version+"."+spec.group`: "v1.example.com"',
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
    ]);
  });

  it('defaults the service port and makes a local one Available at create', () => {
    const withService = apiService('v1.a.io', {
      group: 'a.io',
      version: 'v1',
      service: { namespace: 'ns', name: 's' },
    });
    apiServiceKind.defaults?.(withService);
    expect((withService.spec as { service: { port: number } }).service.port).toBe(443);
    const local = apiService('v1.b.io', { group: 'b.io', version: 'v1' });
    local.metadata!.creationTimestamp = '2026-01-01T00:00:00Z';
    apiServiceKind.prepareForCreate?.(local);
    expect(local.status).toEqual({
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastTransitionTime: '2026-01-01T00:00:00Z',
          reason: 'Local',
          message: 'Local APIServices are always available',
        },
      ],
    });
  });

  it('prints the service and availability', () => {
    const obj = apiService('v1.a.io', { service: { namespace: 'ns', name: 's' } });
    obj.status = { conditions: [{ type: 'Available', status: 'False', reason: 'ServiceNotFound' }] };
    expect(apiServiceKind.columns.slice(0, 2).map((c) => c.cell(obj, 0))).toEqual([
      'ns/s',
      'False (ServiceNotFound)',
    ]);
  });
});
