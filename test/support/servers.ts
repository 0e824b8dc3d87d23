/**
 * Which PostgreSQL servers the tests run against. The embedded server is always
 * there (it is what a fresh machine uses); an external one is added when
 * DATABASE_URL is set or a server answers at 127.0.0.1:5432 (database `test`).
 */
import net from 'node:net';

export function portAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

export async function externalServerUrl(): Promise<string | null> {
  if (process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== '') return process.env.DATABASE_URL;
  if (process.env.LEDGERPORT_TEST_NO_EXTERNAL === '1') return null;
  return (await portAnswers('127.0.0.1', 5432)) ? 'postgres://postgres@127.0.0.1:5432/test' : null;
}
