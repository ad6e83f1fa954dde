/**
 * A checkpoint's identity as the running process sees it: which API
 * servers, which cluster storage, which selection.
 */
import { createHash } from 'node:crypto';
import type { Transport } from '../http/transport.js';
import { type InformerKey, informerKeyId } from '../watch/informer-key.js';
import type { CheckpointIdentity } from './checkpoint-file.js';

/**
 * The cluster's uid the way tools tell clusters apart: the `kube-system`
 * namespace's metadata.uid (created once per cluster storage; a restarted
 * in-memory server or a rebuilt cluster gets a new one). One GET, no list.
 * Throws when it cannot be read (no such namespace, or not allowed to get it).
 */
export async function clusterUid(transport: Transport, signal?: AbortSignal): Promise<string> {
  const { body } = await transport.request({ path: '/api/v1/namespaces/kube-system', signal });
  const uid = (JSON.parse(body.toString('utf8')) as { metadata?: { uid?: string } }).metadata?.uid;
  if (!uid) throw new Error('the kube-system namespace has no uid');
  return uid;
}

/** The identity a checkpoint of `key` must carry to be used with this transport's cluster. */
export async function checkpointIdentity(
  transport: Transport,
  key: InformerKey,
  signal?: AbortSignal,
): Promise<CheckpointIdentity> {
  const { connection } = transport;
  const servers = [...new Set([connection.server, ...(connection.servers ?? [])])].sort();
  return {
    servers,
    clusterUid: await clusterUid(transport, signal),
    resource: `${key.type.group}/${key.type.version}/${key.type.plural}`,
    namespace: key.type.namespaced ? (key.namespace ?? '') : '',
    labelSelector: key.labelSelector ?? '',
    fieldSelector: key.fieldSelector ?? '',
  };
}

/** A file name for `key`'s checkpoint: readable, and unique per selection (a hash of it). */
export function checkpointFileName(key: InformerKey): string {
  const hash = createHash('sha256').update(informerKeyId(key)).digest('hex').slice(0, 12);
  const ns = key.type.namespaced && key.namespace ? key.namespace : '_all';
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `${safe(key.type.plural)}.${safe(key.type.group || 'core')}.${safe(ns)}.${hash}.checkpoint`;
}
