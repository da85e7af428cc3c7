// A free TCP port on 127.0.0.1, for a process that must be told its port up front (the CLI with
// --workers, Prism); everything else listens on port 0.
import { createServer } from 'node:net';

/** Listens on port 0, closes, and resolves with the port the system picked once it is released. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
