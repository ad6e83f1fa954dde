/**
 * The corpus's HTTP client: one keep-alive agent per server, the server's CA
 * and an admin bearer token, and nothing between the case and the wire (no
 * client library that would retry, default or re-encode).
 */

import { Agent, request } from 'node:https';
import { decodeProtobufFrames, isProtobuf } from './protobuf-decode.js';

/** A server the corpus runs against. */
export interface Endpoint {
  url: string;
  caPem: string;
  token: string;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as it came: a protobuf answer is not text. */
  bytes: Buffer;
}

const agents = new WeakMap<Endpoint, Agent>();

function agentFor(endpoint: Endpoint): Agent {
  let agent = agents.get(endpoint);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 16, ca: endpoint.caPem });
    agents.set(endpoint, agent);
  }
  return agent;
}

/** Closes the endpoint's idle connections. */
export function releaseEndpoint(endpoint: Endpoint): void {
  agents.get(endpoint)?.destroy();
  agents.delete(endpoint);
}

/** `path?query` with the query encoded as kube clients encode it. */
export function target(path: string, query?: Record<string, string | number | boolean>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) q.append(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Sends one request and reads the whole answer. */
export function send(
  endpoint: Endpoint,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs = 30_000,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${endpoint.url}${pathAndQuery}`,
      {
        method,
        agent: agentFor(endpoint),
        headers: {
          authorization: `Bearer ${endpoint.token}`,
          // Node sends a DELETE's body with neither Content-Length nor chunking unless told,
          // and Go's server then reads the body as the next request (400 Bad Request).
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: flatHeaders(res.headers),
            text: bytes.toString('utf8'),
            bytes,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`${method} ${pathAndQuery}: no answer in ${timeoutMs} ms`)),
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** An open watch: its status and headers, then its events as they come. */
export interface OpenWatch {
  status: number;
  headers: Record<string, string>;
  /** The body of a non-200 answer. */
  text: string;
  /** The same, as it came (a protobuf Status is not text). */
  bytes: Buffer;
  /** Resolves with the next decoded line, or undefined once the stream ended. */
  next(timeoutMs: number): Promise<{ line: unknown } | 'end' | 'timeout'>;
  close(): void;
}

/** Opens a watch and resolves once its response headers arrived. */
export function openWatch(
  endpoint: Endpoint,
  pathAndQuery: string,
  headers: Record<string, string>,
): Promise<OpenWatch> {
  return new Promise((resolve, reject) => {
    // A watch gets a connection of its own, so it never holds a pooled one.
    const req = request(`${endpoint.url}${pathAndQuery}`, {
      method: 'GET',
      ca: endpoint.caPem,
      agent: false,
      headers: { authorization: `Bearer ${endpoint.token}`, ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const lines: unknown[] = [];
      let buffer = '';
      // A protobuf stream is length-prefixed frames, not lines (protobuf-decode.ts).
      const framed = isProtobuf(res.headers['content-type']);
      let frames: Buffer = Buffer.alloc(0);
      let ended = false;
      let wake: (() => void) | undefined;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        if (res.statusCode !== 200) {
          chunks.push(chunk);
          return;
        }
        if (framed) {
          const decoded = decodeProtobufFrames(Buffer.concat([frames, chunk]));
          frames = decoded.rest;
          lines.push(...decoded.events);
          wake?.();
          return;
        }
        buffer += chunk.toString('utf8');
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line) lines.push(parseLine(line));
        }
        wake?.();
      });
      const finish = () => {
        ended = true;
        wake?.();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      const watch: OpenWatch = {
        status: res.statusCode ?? 0,
        headers: flatHeaders(res.headers),
        get text() {
          return Buffer.concat(chunks).toString('utf8');
        },
        get bytes() {
          return Buffer.concat(chunks);
        },
        async next(timeoutMs) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            if (lines.length > 0) return { line: lines.shift() };
            if (ended) return 'end';
            const left = deadline - Date.now();
            if (left <= 0) return 'timeout';
            await new Promise<void>((r) => {
              const timer = setTimeout(r, left);
              wake = () => {
                clearTimeout(timer);
                wake = undefined;
                r();
              };
            });
          }
        },
        close() {
          req.destroy();
        },
      };
      if (res.statusCode !== 200) {
        res.on('end', () => resolve(watch));
      } else {
        resolve(watch);
      }
    });
    req.end();
  });
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return { unparsable: line };
  }
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join('\n') : v;
  }
  return out;
}
