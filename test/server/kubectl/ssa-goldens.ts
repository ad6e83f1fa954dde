/**
 * The managedFields kube-apiserver gives a Deployment that kubectl created, scaled and patched
 * (`time` stands for a present timestamp as 'T'). Where each value comes from:
 * - the kubectl-create entry: create.go runs the field manager on the decoded, defaulted body
 *   against the new empty apps/v1 Deployment (whose zero `spec.strategy: {}` and
 *   `spec.template.{metadata,spec}` mean no `.` on them, while `rollingUpdate` and the labels,
 *   absent from the empty object, get one); the same entry as printed by real clusters for
 *   `kubectl create deployment` (e.g. the managedFields in kubernetes/website's
 *   content/en/docs/reference/using-api/server-side-apply.md for the format, and captured
 *   `kubectl get deploy -o yaml --show-managed-fields` outputs of 1.2x clusters for the field list);
 * - the scale entry: apimachinery managedfields scalehandler.go `ToParent` (manager from the
 *   User-Agent, operation Update, subresource scale, the parent's apiVersion, no time: ToParent
 *   takes the time from the parent's entries, which never hold the Scale's manager), and the
 *   replicas taken from the creator's entry (the "steal");
 * - the kubectl-set entry: a strategic merge patch with manager `kubectl-set` (kubectl set image's
 *   --field-manager default) owning the image it changed, which the creator loses.
 */

const container = (withImage: boolean) => ({
  '.': {},
  ...(withImage ? { 'f:image': {} } : {}),
  'f:imagePullPolicy': {},
  'f:name': {},
  'f:resources': {},
  'f:terminationMessagePath': {},
  'f:terminationMessagePolicy': {},
});

const created = (withReplicas: boolean, withImage: boolean) => ({
  apiVersion: 'apps/v1',
  fieldsType: 'FieldsV1',
  fieldsV1: {
    'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    'f:spec': {
      'f:progressDeadlineSeconds': {},
      ...(withReplicas ? { 'f:replicas': {} } : {}),
      'f:revisionHistoryLimit': {},
      'f:selector': {},
      'f:strategy': {
        'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
        'f:type': {},
      },
      'f:template': {
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': {
          'f:containers': { 'k:{"name":"nginx"}': container(withImage) },
          'f:dnsPolicy': {},
          'f:restartPolicy': {},
          'f:schedulerName': {},
          'f:securityContext': {},
          'f:terminationGracePeriodSeconds': {},
        },
      },
    },
  },
  manager: 'kubectl-create',
  operation: 'Update',
  time: 'T',
});

/** After `kubectl create deployment nginx --image=nginx`. */
export const afterCreate = [created(true, true)];

/** After `kubectl scale deployment/nginx --replicas=3` by the kubectl binary named `scaler`. */
export function afterScale(scaler: string) {
  return [
    {
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      manager: scaler,
      operation: 'Update',
      subresource: 'scale',
    },
    created(false, true),
  ];
}

/** After `kubectl set image deployment/nginx nginx=nginx:1.25`. */
export function afterSetImage(scaler: string) {
  return [
    ...afterScale(scaler).slice(0, 1),
    created(false, false),
    {
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:spec': {
          'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { 'f:image': {} } } } },
        },
      },
      manager: 'kubectl-set',
      operation: 'Update',
      time: 'T',
    },
  ];
}
