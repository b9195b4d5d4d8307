import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface Proxy {
  port: number;
  /** The database becomes unreachable: open connections are reset, new ones refused. */
  cut(): Promise<void>;
  /** Reachable again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP relay on 127.0.0.1 in front of a database, to take it away and bring it back. */
export async function tcpProxy(targetPort: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const cut = async () => {
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.resetAndDestroy();
    await closed;
  };
  return {
    port,
    cut,
    async restore() {
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    async close() {
      if (server.listening) await cut();
    },
  };
}

/** `url` with its port replaced: the same database, reached through `port`. */
export function throughPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
}
