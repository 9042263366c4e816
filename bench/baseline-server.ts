// The baseline: a bare node:http server answering every request with one fixed small
// JSON body. `node dist/bench/baseline-server.js PORT [BYTES]` prints "listening URL"
// when ready; with BYTES it answers a JSON body of that size instead (the ceiling for
// endpoints whose answers are that large).
import { createServer } from 'node:http';

const SMALL = '{"status":"ok","products":200000,"ingredients":20000}';
const bytes = Number(process.argv[3] ?? 0);
const BODY = Buffer.from(bytes > SMALL.length ? `{"pad":"${'x'.repeat(bytes - 10)}"}` : SMALL);

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': BODY.length });
    res.end(BODY);
  });
});
server.listen(Number(process.argv[2]), '127.0.0.1', () =>
  process.stdout.write(`listening http://127.0.0.1:${process.argv[2]}\n`),
);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
