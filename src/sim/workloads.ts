/**
 * Deployments and Pods as the demo, the benchmarks and the tests write them:
 * one container, and for a Deployment an `app: <name>` label that its
 * selector and its pod template share (what `kubectl create deployment`
 * writes). Only what is asked for is set; the server defaults the rest, as
 * kube-apiserver does. Objects that must be odd on purpose are written by
 * hand where they are used.
 */
import type { KubeObject } from '../protocol/events.js';
import type { Container, Deployment, Pod } from './core/objects.js';

/** The image a workload runs unless told otherwise. */
export const DEFAULT_IMAGE = 'nginx:1.27';

/** The one container of a built Pod or Deployment. */
export interface ContainerOptions {
  /** Its image (default {@link DEFAULT_IMAGE}). */
  image?: string;
  /** Its name (default `c` in a Pod, `web` in a Deployment). */
  container?: string;
  /** Ports it declares (`containerPort`s). */
  ports?: number[];
}

/** The metadata of a built object besides its name. */
export interface MetadataOptions {
  /** Its namespace (unset: the one the object is created in). */
  namespace?: string;
  /** Its labels. */
  labels?: Record<string, string>;
  /** Its annotations. */
  annotations?: Record<string, string>;
}

/** Options of {@link buildPod}. */
export interface PodOptions extends ContainerOptions, MetadataOptions {
  /** The node it is bound to, as the scheduler binds it. */
  nodeName?: string;
}

/** Options of {@link buildDeployment}; its `labels` are the Deployment's own (its pods get `app: <name>`). */
export interface DeploymentOptions extends ContainerOptions, MetadataOptions {
  /** How many pods (default 3). */
  replicas?: number;
  /** Further spec fields: strategy, minReadySeconds, progressDeadlineSeconds, paused... */
  spec?: Partial<Deployment['spec']>;
}

function container(defaultName: string, opts: ContainerOptions): Container {
  const c: Container = { name: opts.container ?? defaultName, image: opts.image ?? DEFAULT_IMAGE };
  if (opts.ports) c.ports = opts.ports.map((containerPort) => ({ containerPort }));
  return c;
}

function metadata(name: string, { namespace, labels, annotations }: MetadataOptions): KubeObject['metadata'] {
  return {
    name,
    ...(namespace !== undefined && { namespace }),
    ...(labels && { labels }),
    ...(annotations && { annotations }),
  };
}

/** A core/v1 Namespace. */
export function buildNamespace(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

/** A core/v1 Pod of one container. */
export function buildPod(name: string, opts: PodOptions = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: metadata(name, opts),
    spec: {
      ...(opts.nodeName !== undefined && { nodeName: opts.nodeName }),
      containers: [container('c', opts)],
    },
  };
}

/** An apps/v1 Deployment of pods labelled `app: <name>`, one container each. */
export function buildDeployment(name: string, opts: DeploymentOptions = {}): Deployment {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadata(name, opts),
    spec: {
      replicas: opts.replicas ?? 3,
      selector: { matchLabels: labels },
      template: { metadata: { labels: { ...labels } }, spec: { containers: [container('web', opts)] } },
      ...opts.spec,
    },
  };
}
