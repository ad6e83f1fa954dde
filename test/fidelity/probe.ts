/**
 * Asks the reference one or more raw questions, for writing a case or reading
 * a difference: starts the reference (envtest profile), sends each request
 * and prints status, headers and body as they came, then stops it.
 *
 *   npx tsx test/fidelity/probe.ts 'GET /apis' 'accept: application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList'
 *   npx tsx test/fidelity/probe.ts 'POST /api/v1/namespaces' '{"metadata":{"name":"x"}}'
 *
 * Each request is `METHOD PATH`, then any `name: value` header arguments and
 * at most one body argument (anything else), before the next `METHOD PATH`.
 * A protobuf answer is printed as hex, then decoded to the JSON it stands for.
 */

import { startReferenceServer } from '../../src/process/index.js';
import { send } from './http.js';
import { decodeProtobufAnswer, isProtobuf } from './protobuf-decode.js';

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function parse(args: string[]): Probe[] {
  const out: Probe[] = [];
  for (const arg of args) {
    const request = /^([A-Z]+) (\/\S*)$/.exec(arg);
    const header = /^([A-Za-z-]+): (.*)$/.exec(arg);
    if (request) out.push({ method: request[1], path: request[2], headers: {} });
    else if (out.length === 0) throw new Error(`start with METHOD /path, not ${JSON.stringify(arg)}`);
    else if (header) out[out.length - 1].headers[header[1].toLowerCase()] = header[2];
    else out[out.length - 1].body = arg;
  }
  return out;
}

async function main(): Promise<void> {
  const probes = parse(process.argv.slice(2));
  if (probes.length === 0) throw new Error("usage: probe.ts 'METHOD /path' ['header: value'] [body] ...");
  const server = await startReferenceServer({ log: null });
  try {
    for (const p of probes) {
      const headers = {
        ...(p.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...p.headers,
      };
      const answer = await send(server, p.method, p.path, headers, p.body);
      process.stdout.write(`${p.method} ${p.path} -> ${answer.status}\n`);
      for (const [k, v] of Object.entries(answer.headers)) process.stdout.write(`${k}: ${v}\n`);
      // A protobuf answer is bytes: its hex, then the JSON it stands for.
      if (isProtobuf(answer.headers['content-type'])) {
        const decoded = JSON.stringify(decodeProtobufAnswer(answer.bytes), null, 2);
        process.stdout.write(`\n${answer.bytes.toString('hex')}\n\n${decoded}\n\n`);
      } else process.stdout.write(`\n${answer.text}\n\n`);
    }
  } finally {
    await server.close();
  }
}

main().catch((err) => {
  process.stderr.write(`probe: ${(err as Error).message}\n`);
  process.exit(1);
});
