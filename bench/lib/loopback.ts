/** A benchmark's own HTTP servers (webhook receivers) on a free loopback port: started and closed the same way everywhere. */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1 and a free port; the URL of `path` there. */
export async function listenOnLoopback(server: http.Server, path: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
}

/** Closes the server and every connection it holds open (a receiver that never answers holds some). */
export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
}
