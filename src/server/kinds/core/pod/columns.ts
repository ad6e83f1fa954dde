/**
 * The Pod's Table columns (pkg/printers/internalversion/printers.go `printPod`): `READY STATUS
 * RESTARTS AGE`, wide `IP NODE NOMINATED NODE READINESS GATES`. The cells that walk the
 * containers are status.ts's.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { objects, specOf, statusOf, str } from '../../access.js';
import { ageColumn, col, orNone, typeDocs, wide } from '../../columns.js';
import type { TableColumn } from '../../types.js';
import { type PodSummary, podSummary, readinessGates } from './status.js';

/** Column docs of core/v1 types (printers.go `apiv1.T{}`). */
const core = typeDocs('io.k8s.api.core.v1');

// One walk over the containers serves READY, STATUS and RESTARTS of a row.
const podSummaries = new WeakMap<KubeObject, { now: number; summary: PodSummary }>();
function summary(o: KubeObject, now: number): PodSummary {
  const cached = podSummaries.get(o);
  if (cached && cached.now === now) return cached.summary;
  const computed = podSummary(o, now);
  podSummaries.set(o, { now, summary: computed });
  return computed;
}

/** Pods: `READY STATUS RESTARTS AGE`, wide `IP NODE NOMINATED NODE READINESS GATES`. */
export const podColumns: TableColumn[] = [
  col('Ready', 'string', (o, now) => summary(o, now).ready, {
    description: 'The aggregate readiness state of this pod for accepting traffic.',
  }),
  col('Status', 'string', (o, now) => summary(o, now).status, {
    description: 'The aggregate status of the containers in this pod.',
  }),
  col('Restarts', 'string', (o, now) => summary(o, now).restarts, {
    description:
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
  }),
  ageColumn,
  // The printer reads podIPs[0]; the v1 conversion keeps podIP in step, so either will do.
  wide(
    'IP',
    (o) => orNone(str(objects(statusOf(o).podIPs)[0]?.ip) || str(statusOf(o).podIP)),
    core('PodStatus', 'podIP'),
  ),
  wide('Node', (o) => orNone(str(specOf(o).nodeName)), core('PodSpec', 'nodeName')),
  wide(
    'Nominated Node',
    (o) => orNone(str(statusOf(o).nominatedNodeName)),
    core('PodStatus', 'nominatedNodeName'),
  ),
  wide('Readiness Gates', (o) => readinessGates(o), core('PodSpec', 'readinessGates')),
];
