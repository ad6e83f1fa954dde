import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import {
  defaultVolumeAttachment,
  validateVolumeAttachment,
  volumeAttachmentKind,
} from '../../../../src/server/kinds/storage/volumeattachment.js';

const texts = (errors: Array<{ field: string; message: string }>) =>
  errors.map((e) => `${e.field}: ${e.message}`);
const NOW = Date.parse('2026-01-01T00:01:00Z');

const attachment = (spec: Record<string, unknown>): KubeObject => {
  const o = { metadata: { name: 'va' }, spec } as KubeObject;
  defaultVolumeAttachment(o);
  return o;
};

describe('VolumeAttachment', () => {
  it('writes the fields without omitempty and the inline sources defaults', () => {
    const o = attachment({ source: { inlineVolumeSpec: { hostPath: { path: '/x' } } } });
    expect(o.spec).toEqual({
      attacher: '',
      source: { inlineVolumeSpec: { hostPath: { path: '/x', type: '' } } },
      nodeName: '',
    });
    expect(o.status).toEqual({ attached: false });
  });

  it('reports the attacher declaratively, after the handwritten rules', () => {
    const o = attachment({ attacher: 'Csi_bad', nodeName: 'node-1', source: { persistentVolumeName: 'pv' } });
    expect(texts(validateVolumeAttachment(o))).toEqual([
      "spec.attacher: Invalid value: \"Csi_bad\": an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    const none = attachment({ nodeName: 'node-1', source: {} });
    expect(texts(validateVolumeAttachment(none))).toEqual([
      'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
      'spec.attacher: Required value',
    ]);
  });

  it('refuses a changed spec whole, as +k8s:immutable does', () => {
    const old = attachment({
      attacher: 'csi.example.com',
      nodeName: 'n1',
      source: { persistentVolumeName: 'pv' },
    });
    const next = attachment({
      attacher: 'csi.example.com',
      nodeName: 'n2',
      source: { persistentVolumeName: 'pv' },
    });
    expect(texts(validateVolumeAttachment(next, old))).toEqual([
      'spec: Invalid value: null: field is immutable',
    ]);
    expect(validateVolumeAttachment(old, old)).toEqual([]);
  });

  it('keeps an inline volume to CSI, Retain and Filesystem', () => {
    const o = attachment({
      attacher: 'a',
      nodeName: 'n',
      source: {
        inlineVolumeSpec: {
          accessModes: ['ReadWriteOnce'],
          volumeMode: 'Block',
          capacity: { storage: '1Gi' },
        },
      },
    });
    expect(texts(validateVolumeAttachment(o))).toEqual([
      'spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec: Required value: must specify a volume type',
      'spec.source.inlineVolumeSpec.volumeMode: Forbidden: may not specify volumeMode other than Filesystem in the context of inline volumes',
    ]);
  });

  it('checks the status error codes and message sizes', () => {
    const o = attachment({ attacher: 'a', nodeName: 'n', source: { persistentVolumeName: 'pv' } });
    o.status = { attached: true, attachError: { message: 'x'.repeat(1025), errorCode: -1 } };
    expect(texts(validateVolumeAttachment(o))).toEqual([
      'status.attachError.message: Too long: may not be more than 1024 bytes',
      'status.attachError.errorCode: Invalid value: -1: must be between 0 and 2147483647, inclusive',
    ]);
  });

  it('prints attacher, volume, node and attached', () => {
    const o = attachment({ attacher: 'a', nodeName: 'n', source: { persistentVolumeName: 'pv' } });
    o.metadata = { name: 'va', creationTimestamp: '2026-01-01T00:00:00Z' };
    o.status = { attached: true };
    expect(volumeAttachmentKind.columns.map((c) => c.cell(o, NOW))).toEqual(['a', 'pv', 'n', true, '60s']);
  });
});
