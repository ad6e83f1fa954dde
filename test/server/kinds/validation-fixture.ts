/** What the validation tests share: default-then-validate as the object layer does, a minimal Deployment, and the DNS-1123 messages. */
import type { KubeObject } from '../../../src/protocol/events.js';
import { findByKind } from '../../../src/server/kinds/served/registry.js';
import { fieldErrorText } from '../../../src/server/kinds/validation.js';

/** Defaults then validates, as the object layer does; returns `field: message` texts. */
export function check(apiVersion: string, kind: string, obj: KubeObject): string[] {
  const k = findByKind(apiVersion, kind)!;
  const copy = structuredClone(obj);
  k.defaults?.(copy);
  return (k.validate?.(copy) ?? []).map(fieldErrorText);
}

export function deployment(
  mutate: (d: { metadata: Record<string, unknown>; spec: Record<string, any> }) => void = () => {},
) {
  const d = {
    metadata: { name: 'web', namespace: 'demo' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
      },
    } as Record<string, any>,
  };
  mutate(d);
  return d as KubeObject;
}

export const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
