// The baseline: a bare node:http server answering every request with one fixed small
// JSON body. `node dist/bench/baseline-server.js PORT` prints "listening URL" when ready.
import { createServer } from 'node:http';

const BODY = Buffer.from('{"status":"ok","products":200000,"ingredients":20000}');

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': BODY.length });
    res.end(BODY);
  });
});
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write(`listening http://127.0.0.1:${process.argv[2]}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
