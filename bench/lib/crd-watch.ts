/**
 * A watch on CustomResourceDefinitions for bench/crd.ts: resolves when a definition reaches a
 * state (Established), as a client waiting on the watch would see it, with no polling delay.
 */
import { request } from 'node:http';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A watch on definitions; `until(pred)` resolves with the first definition `pred` accepts. */
export function watchCrds(url: string, name?: string) {
  const query = name ? `&fieldSelector=metadata.name%3D${name}` : '';
  let buffer = '';
  const waiters: Array<{ pred: (o: any) => boolean; resolve: (o: any) => void }> = [];
  const seen: any[] = [];
  const req = request(new URL(`${CRDS}?watch=1${query}`, url), (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const event = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        seen.push(event.object);
        for (const w of [...waiters]) {
          if (w.pred(event.object)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(event.object);
          }
        }
        nl = buffer.indexOf('\n');
      }
    });
  });
  req.end();
  return {
    until: (pred: (o: any) => boolean) =>
      new Promise<any>((resolve) => {
        const hit = seen.find(pred);
        if (hit) resolve(hit);
        else waiters.push({ pred, resolve });
      }),
    close: () => req.destroy(),
  };
}

/** True when the definition's Established condition is True. */
export const established = (o: any) =>
  (o?.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
