/**
 * core/v1 `bindings` (`POST /api/v1/namespaces/NS/bindings`): kube-apiserver serves it with the
 * pods' BindingREST (pkg/registry/core/rest/storage_core.go maps `bindings` to `podStorage.Binding`):
 * the pod the Binding's `metadata.name` names is bound to its target, as `pods/NAME/binding` binds
 * it, and the answer is the create's Success Status.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { StatusError, successStatus } from '../../../../protocol/status.js';
import { builtinKind } from '../../builtin.js';
import type { ResourceKind } from '../../types.js';

/** The Bindings' entry: create only, answered by binding the pod. */
export const bindingKind: ResourceKind = builtinKind('', 'v1', 'bindings', {
  virtual: {
    async create(request, body: KubeObject) {
      // BindingREST.Create's own check of a Binding reached by the collection's path, where the
      // URL names no pod: `metadata.name` must (the name-in-URL check has no URL name to compare).
      if (!body.metadata?.name) {
        throw StatusError.of('BadRequest', 'name in URL does not match name in Binding object');
      }
      await request.services.bindPod(request.namespace ?? '', body, request.dryRun);
      // create.go: a Status answered by a create carries the create's code.
      const status = successStatus();
      status.code = 201;
      return { code: 201, body: status as unknown as KubeObject };
    },
  },
});
