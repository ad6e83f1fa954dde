import type { IncomingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';

/** A plain answer of the UI routes. */
export interface UiAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Options of {@link uiGet}. */
export interface UiRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** PEM of the CA to trust; without it the certificate is not checked (the demo's own CA is not at hand). */
  ca?: string;
}

/** One request to a /ui URL, answered whole (not for the event stream). */
export function uiRequest(url: string, opts: UiRequestOptions = {}): Promise<UiAnswer> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? request : httpRequest;
    const req = send(
      url,
      {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        ca: opts.ca,
        rejectUnauthorized: opts.ca !== undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The `name=value` part of a Set-Cookie answer, for the next request's Cookie header. */
export function cookieOf(answer: UiAnswer): string {
  const set = answer.headers['set-cookie']?.[0];
  if (!set) throw new Error(`no Set-Cookie in the answer (status ${answer.status})`);
  return set.split(';')[0];
}

/** An open event stream: the frames received so far, parsed. */
export interface EventStream {
  frames: any[];
  /** Resolves with the first frame (received from now on or before) that satisfies `test`. */
  waitFor(test: (frame: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): void;
}

/** Opens `/ui/events` and parses its frames as they come. */
export function openEventStream(url: string, opts: UiRequestOptions = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? request : httpRequest;
    const frames: any[] = [];
    const waiters = new Set<() => void>();
    const req = send(
      url,
      { headers: opts.headers, ca: opts.ca, rejectUnauthorized: opts.ca !== undefined },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`event stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        let buffered = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered += chunk;
          for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
            const message = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const data = message
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (data) frames.push(JSON.parse(data));
          }
          for (const w of waiters) w();
        });
        res.on('error', () => {});
        resolve({
          frames,
          waitFor(test, timeoutMs = 15_000) {
            return new Promise((ok, fail) => {
              const check = () => {
                const found = frames.find(test);
                if (found === undefined) return;
                waiters.delete(check);
                clearTimeout(timer);
                ok(found);
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`no matching frame within ${timeoutMs} ms (${frames.length} frames)`));
              }, timeoutMs);
              waiters.add(check);
              check();
            });
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', (err) => reject(err));
    req.end();
  });
}
