import type { KubeObject } from '../../protocol/events.js';

/**
 * The codec between objects and the bytes a store keeps: stored values are
 * an object's JSON without its resourceVersion, which is the store's
 * revision of the write (k8s.io/apiserver's etcd3 store sets it on decode
 * with `versioner.UpdateObject`; kube-apiserver keeps protobuf there, and
 * the choice is invisible to clients).
 */

/** Parses a stored value and stamps it with its resourceVersion. */
export function decodeStored(value: string, revision: number): KubeObject {
  const object = JSON.parse(value) as KubeObject;
  object.metadata = { ...object.metadata, resourceVersion: String(revision) };
  return object;
}
