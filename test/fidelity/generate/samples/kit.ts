/** What a sample is, and the builders every area's samples use. */

export interface KindSample {
  kind: string;
  /**
   * What the generated case ids call the sample (`kind` when absent): a kind served in two
   * versions, or under two groups, needs one per sample (`HorizontalPodAutoscaler.v1`).
   */
  label?: string;
  apiVersion: string;
  /** The collection path (`$ns` for namespaced kinds). */
  collection: string;
  namespaced: boolean;
  /** The OpenAPI v3 document (`api/v1`, `apis/apps/v1`). */
  openapi: string;
  /** The schema's name in that document. */
  schema: string;
  /** The generic subresources the generators exercise (get, update and patch of each). */
  subresources: Array<'status' | 'scale'>;
  /** A valid object named `name`. */
  object(name: string): Record<string, unknown>;
  /** A change a user would make on update (a path and a new value). */
  change: { path: string[]; value: unknown };
  /**
   * The name of a cluster-scoped object made from `fc-$n-<base>`, where the kind's validation
   * constrains names (an APIService is named `<version>.<group>`). Absent: that name as it is.
   */
  clusterName?(name: string): string;
}

export const podSpec = () => ({ containers: [{ name: 'app', image: 'nginx:1.27' }] });
export const template = (app: string) => ({ metadata: { labels: { app } }, spec: podSpec() });

export const webhook = () => ({
  name: 'check.example.com',
  clientConfig: { url: 'https://webhook.example.com/check' },
  rules: [
    { operations: ['CREATE'], apiGroups: ['example.org'], apiVersions: ['v1'], resources: ['gadgets'] },
  ],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  failurePolicy: 'Ignore',
});

export function core(kind: string, plural: string, namespaced: boolean) {
  return {
    kind,
    apiVersion: 'v1',
    collection: namespaced ? `/api/v1/namespaces/$ns/${plural}` : `/api/v1/${plural}`,
    namespaced,
    openapi: 'api/v1',
    schema: `io.k8s.api.core.v1.${kind}`,
  };
}

export function grouped(
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
  pkg: string,
) {
  return {
    kind,
    apiVersion: `${group}/${version}`,
    collection: namespaced
      ? `/apis/${group}/${version}/namespaces/$ns/${plural}`
      : `/apis/${group}/${version}/${plural}`,
    namespaced,
    openapi: `apis/${group}/${version}`,
    schema: `io.k8s.api.${pkg}.${version}.${kind}`,
  };
}

export const meta = (name: string, labels?: Record<string, string>) => ({
  name,
  ...(labels ? { labels } : {}),
});
