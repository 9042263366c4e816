// The baselines: a bare node:http server answering every request with one fixed small
// JSON body. `node dist/bench/baseline-server.js PORT [BYTES] [--fastify]` prints
// "listening URL" when ready; with BYTES it answers a JSON body of that size instead (the
// ceiling for endpoints whose answers are that large); with --fastify the same body comes
// from a fastify app with one route and nothing else (no logger, hooks, schemas or access
// checks): the framework's own floor, which no endpoint of the service can go below.
import { createServer } from 'node:http';
import Fastify from 'fastify';

const SMALL = '{"status":"ok","products":200000,"ingredients":20000}';
const [port, size, mode] = process.argv.slice(2);
const bytes = Number(size ?? 0);
const BODY = Buffer.from(bytes > SMALL.length ? `{"pad":"${'x'.repeat(bytes - 10)}"}` : SMALL);
const TYPE = 'application/json; charset=utf-8';
const ready = () => process.stdout.write(`listening http://127.0.0.1:${port}\n`);

if (mode === '--fastify') {
  const app = Fastify({ logger: false });
  app.all('/*', (_req, reply) => {
    reply.header('content-type', TYPE).send(BODY);
  });
  app.listen({ host: '127.0.0.1', port: Number(port) }).then(ready, (err: unknown) => {
    process.stderr.write(`baseline-server: ${String(err)}\n`);
    process.exit(1);
  });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': TYPE, 'content-length': BODY.length });
      res.end(BODY);
    });
  });
  server.listen(Number(port), '127.0.0.1', ready);
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}
