/**
 * Watch events of three pod sizes for the decoding experiments of issue 26
 * (json-string-shapes.ts, protobuf-watch.ts), built from the client
 * benchmark's pod (bench/lib/pods.ts, ~1.6 KB):
 * - small (~1 KB): a pod-status update's pod, trimmed (no annotations,
 *   owner reference, ports, env or resources);
 * - medium (~4 KB): the bench pod with three containers, more env and labels;
 * - large (~40 KB): the bench pod with 12 containers of 60 env vars each.
 * Each event is a MODIFIED of a distinct pod name with its resourceVersion.
 */
import type { KubeObject } from '../../src/index.js';
import { churnPod, makePod } from '../lib/pods.js';

export type Size = 'small' | 'medium' | 'large';
export const SIZES: Size[] = ['small', 'medium', 'large'];

type Pod = KubeObject & {
  metadata: Record<string, unknown> & {
    labels: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: { containers: Array<Record<string, unknown>> } & Record<string, unknown>;
  status: { containerStatuses: Array<Record<string, unknown>> } & Record<string, unknown>;
};

/** Pod `i` of the given size, at resourceVersion `rv`. */
export function sizedPod(size: Size, i: number, rv: number): KubeObject {
  const pod = structuredClone(churnPod(makePod('churn', i), 1 + (i % 7))) as Pod;
  pod.metadata.resourceVersion = String(rv);
  if (size === 'small') {
    delete pod.metadata.annotations;
    delete pod.metadata.ownerReferences;
    delete pod.metadata.generateName;
    const c = pod.spec.containers[0];
    delete c.ports;
    delete c.env;
    delete c.resources;
    pod.status.conditions = (pod.status.conditions as unknown[]).slice(0, 2);
    return pod;
  }
  const containers = size === 'medium' ? 3 : 12;
  const envs = size === 'medium' ? 6 : 60;
  const base = pod.spec.containers[0];
  const baseStatus = pod.status.containerStatuses[0];
  pod.spec.containers = Array.from({ length: containers }, (_, k) => ({
    ...base,
    name: `${base.name}-${k}`,
    env: Array.from({ length: envs }, (_, e) => ({
      name: `SETTING_${k}_${e}`,
      value: `value-${i}-${k}-${e}`,
    })),
  }));
  pod.status.containerStatuses = pod.spec.containers.map((c) => ({ ...baseStatus, name: c.name }));
  for (let l = 0; l < (size === 'medium' ? 6 : 40); l++)
    pod.metadata.labels[`example.com/label-${l}`] = `v${l}`;
  return pod;
}

/** `count` MODIFIED watch events of `size` as JSON lines (each ending in '\n'). */
export function jsonEventLines(size: Size, count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) => `${JSON.stringify({ type: 'MODIFIED', object: sizedPod(size, i, 1_000_000 + i) })}\n`,
  );
}

/** Splits bytes into chunks of `size` bytes (what a socket read hands to JS: 64 KiB at most). */
export function chunked(bytes: Buffer, size = 65_536): Buffer[] {
  const out: Buffer[] = [];
  for (let o = 0; o < bytes.length; o += size) out.push(bytes.subarray(o, Math.min(bytes.length, o + size)));
  return out;
}

/**
 * The client benchmark's steady stream, rebuilt in memory: `events` MODIFIED
 * events round robin over `podCount` churn pods (bench/lib/pods.ts), each
 * with the next resourceVersion after 1,000,000, one JSON line each, and the
 * bytes cut in 64 KiB chunks as a socket delivers them.
 */
export function churnStream(podCount: number, events: number) {
  const pods = Array.from({ length: podCount }, (_, i) => makePod('churn', i));
  let rv = 1_000_000;
  const lines: string[] = [];
  for (let e = 0; e < events; e++) {
    const pod = churnPod(pods[e % podCount], Math.floor(e / podCount) + 1);
    pod.metadata = { ...pod.metadata, resourceVersion: String(++rv) };
    lines.push(`${JSON.stringify({ type: 'MODIFIED', object: pod })}\n`);
  }
  const bytes = Buffer.from(lines.join(''));
  return { pods, bytes, chunks: chunked(bytes) };
}
