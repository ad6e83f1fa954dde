import { writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer, type Socket } from 'node:net';

/** A TCP server that accepts connections and never answers: a peer that vanished behind a pooled socket. */
export interface SilentServer {
  url: string;
  /** Writes a kubeconfig (token auth) for it to `path`. */
  writeKubeconfig(path: string, namespace?: string): Promise<void>;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const held: Socket[] = [];
  const server = createServer((socket) => {
    held.push(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    connections: () => held.length,
    async writeKubeconfig(path, namespace = 'default') {
      const text = [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: c, cluster: {server: "${url}"}}]`,
        'users: [{name: u, user: {token: t}}]',
        `contexts: [{name: x, context: {cluster: c, user: u, namespace: ${namespace}}}]`,
        'current-context: x',
        '',
      ].join('\n');
      await writeFile(path, text, { mode: 0o600 });
    },
    async close() {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
