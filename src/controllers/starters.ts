/**
 * How each controller beside the garbage collector starts: one entry per name of names.ts.
 * A controller is a class with `start()`, `stop()` and `stats()` (the shape of
 * disruption.ts and namespace-objects.ts); a new one is a file here and one entry below.
 */
import type { KubeClient } from '../client/client.js';
import type { Clock } from '../protocol/clock.js';
import { ClusterRoleAggregationController } from './clusterrole-aggregation.js';
import { CronJobController } from './cronjob/controller.js';
import { DisruptionController } from './disruption.js';
import { EndpointsController } from './endpoints.js';
import { EndpointSliceController } from './endpointslice.js';
import { EndpointSliceMirroringController } from './endpointslice-mirroring.js';
import { JobController } from './job/controller.js';
import type { ControllerName } from './names.js';
import { DEFAULT_SERVICE_ACCOUNT, rootCaConfigMap } from './namespace-defaults.js';
import { NamespaceObjectController } from './namespace-objects.js';
import { ServiceCIDRController } from './service-cidr.js';
import { TtlAfterFinishedController } from './ttl-after-finished.js';

/** A controller running. */
export interface RunningController {
  /** Work items done and failed (retried). */
  stats(): { syncs: number; failures: number };
  /** Stops it; nothing of it is left open once this resolves. */
  stop(): Promise<void>;
}

/** What a controller starts with. */
export interface ControllerContext {
  kube: KubeClient;
  clock: Clock;
  log: (line: string) => void;
  /** Aborted when the controllers close. */
  signal: AbortSignal;
}

/** Starts one controller: resolves once its informers have listed; undefined when it cannot run here (and says why in the log). */
export type ControllerStarter = (ctx: ControllerContext) => Promise<RunningController | undefined>;

/** Starts a controller object of the usual shape, stopping it again when its start fails. */
async function started<C extends RunningController & { start(): Promise<void> }>(c: C): Promise<C> {
  try {
    await c.start();
    return c;
  } catch (err) {
    await c.stop();
    throw err;
  }
}

/**
 * The starters, by name. The garbage collector (index.ts: its monitors follow discovery) and the
 * namespace controller (inside the API server) have none.
 */
export const STARTERS: Partial<Record<ControllerName, ControllerStarter>> = {
  serviceaccount: ({ kube, clock, log }) =>
    started(new NamespaceObjectController(kube, DEFAULT_SERVICE_ACCOUNT, clock, log)),
  'root-ca-cert-publisher': async ({ kube, clock, log }) => {
    // kube-controller-manager takes its kubeconfig's CA when no `--root-ca-file` is given. A server
    // reached over plain HTTP has none: the publisher does not run, and says so.
    const caPem = kube.transport.connection.caPem;
    if (!caPem) {
      log(
        'root-ca-certificate-publisher-controller: the server has no CA (plain HTTP): not publishing kube-root-ca.crt',
      );
      return undefined;
    }
    return started(new NamespaceObjectController(kube, rootCaConfigMap(caPem), clock, log));
  },
  disruption: ({ kube, clock, log }) => started(new DisruptionController(kube, clock, log)),
  endpoint: ({ kube, clock, log }) => started(new EndpointsController(kube, clock, log)),
  endpointslice: ({ kube, clock, log }) => started(new EndpointSliceController(kube, clock, log)),
  endpointslicemirroring: ({ kube, clock, log }) =>
    started(new EndpointSliceMirroringController(kube, clock, log)),
  job: ({ kube, clock, log }) => started(new JobController(kube, clock, log)),
  cronjob: ({ kube, clock, log }) => started(new CronJobController(kube, clock, log)),
  'clusterrole-aggregation': ({ kube, clock, log }) =>
    started(new ClusterRoleAggregationController(kube, clock, log)),
  'ttl-after-finished': ({ kube, clock, log }) => started(new TtlAfterFinishedController(kube, clock, log)),
  'service-cidr': ({ kube, clock, log }) => started(new ServiceCIDRController(kube, clock, log)),
};
