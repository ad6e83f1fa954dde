import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { flowSchemaKind } from '../../../../src/server/kinds/flowcontrol/flowschema.js';
import { priorityLevelConfigurationKind } from '../../../../src/server/kinds/flowcontrol/prioritylevelconfiguration.js';

const messages = (errors: { field: string; message: string }[] | undefined) =>
  (errors ?? []).map((e) => `${e.field}: ${e.message}`);

describe('PriorityLevelConfiguration', () => {
  it('defaults a limited level', () => {
    const obj = {
      metadata: { name: 'p' },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } },
    } as KubeObject;
    priorityLevelConfigurationKind.defaults?.(obj);
    expect(obj.spec).toEqual({
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 0,
        limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } },
      },
    });
    expect(priorityLevelConfigurationKind.columns.slice(0, 5).map((c) => c.cell(obj, 0))).toEqual([
      'Limited',
      30,
      64,
      8,
      50,
    ]);
  });

  it('answers the unions as declarative validation does', () => {
    const obj = {
      metadata: { name: 'p' },
      spec: { type: '', limited: { limitResponse: { type: 'Reject' } } },
    } as KubeObject;
    expect(messages(priorityLevelConfigurationKind.validate?.(obj))).toEqual([
      'spec.limited: Forbidden',
      'spec.type: Required value',
    ]);
  });
});

describe('FlowSchema', () => {
  it('defaults the matching precedence and checks rules', () => {
    const obj = {
      metadata: { name: 'f' },
      spec: {
        priorityLevelConfiguration: { name: 'x' },
        rules: [
          {
            subjects: [{ kind: 'User' }],
            nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['healthz'] }],
          },
        ],
      },
    } as KubeObject;
    flowSchemaKind.defaults?.(obj);
    expect((obj.spec as { matchingPrecedence: number }).matchingPrecedence).toBe(1000);
    expect(messages(flowSchemaKind.validate?.(obj))).toEqual([
      "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "healthz": must start with slash',
    ]);
  });

  it('prints MissingPL from the Dangling condition', () => {
    const obj = {
      metadata: { name: 'f' },
      spec: { priorityLevelConfiguration: { name: 'x' } },
      status: { conditions: [{ type: 'Dangling', status: 'True' }] },
    } as KubeObject;
    const missing = flowSchemaKind.columns.find((c) => c.name === 'MissingPL');
    expect(missing?.cell(obj, 0)).toBe('True');
    expect(missing?.cell({ metadata: {} } as KubeObject, 0)).toBe('?');
  });
});
