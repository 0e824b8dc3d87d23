/** Test HTTP servers on 127.0.0.1: listen on a free port and close with every connection cut (receivers that hang). */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free loopback port; returns the URL of `path` on it. */
export async function listenOnLoopback(server: http.Server, path = '/hooks'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
}

/** Closes the server, cutting open connections first (a receiver that never answers holds them). */
export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
}
