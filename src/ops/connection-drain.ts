// Stopping without resets. Guarantees: once drain() starts, the listener accepts no new
// connection, every request that reaches an open connection is answered (with
// `Connection: close`, so its connection ends after it), and a keep-alive connection is
// only closed by the server when it has carried no request for IDLE_GRACE_MS — a client
// that keeps requesting gets its next request answered rather than a connection cut under
// it. (Node's own server.close() closes idle connections at once: a client writing a
// request on one at that moment sees a reset.) drain() resolves when no connection is left.
import type { Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A connection with no request for this long is closed during a drain. */
const IDLE_GRACE_MS = 500;
const CHECK_MS = 25;

interface Connection {
  inFlight: number;
  idleSince: number;
}

export class ConnectionDrain {
  private readonly connections = new Map<Socket, Connection>();
  private draining = false;

  /** Follows the app's connections from now on; call before the app listens. */
  constructor(private readonly app: FastifyInstance) {
    const server: Server = app.server;
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { inFlight: 0, idleSince: Date.now() });
      socket.once('close', () => this.connections.delete(socket));
    });
    server.on('request', (req: { socket: Socket }, res: { once(e: 'close', f: () => void): void }) => {
      const c = this.connections.get(req.socket);
      if (c === undefined) return;
      c.inFlight++;
      res.once('close', () => {
        c.inFlight--;
        c.idleSince = Date.now();
      });
    });
    app.addHook('onRequest', (_req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      if (this.draining) reply.header('connection', 'close');
      done();
    });
  }

  /** Stops accepting, lets open connections finish as described above; resolves when none is left. */
  drain(): Promise<void> {
    this.draining = true;
    // net.Server's close: stop listening without http.Server's immediate close of idle connections.
    NetServer.prototype.close.call(this.app.server);
    return new Promise((resolve) => {
      const check = () => {
        const now = Date.now();
        for (const [socket, c] of this.connections) {
          if (c.inFlight === 0 && now - c.idleSince >= IDLE_GRACE_MS) socket.end();
        }
        if (this.connections.size === 0) resolve();
        else setTimeout(check, CHECK_MS);
      };
      check();
    });
  }
}
