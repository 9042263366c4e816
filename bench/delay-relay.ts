// A TCP relay that holds every chunk going to the target for DELAY_MS before passing it on
// (replies pass at once): `node dist/bench/delay-relay.js HOST PORT TARGET_PORT DELAY_MS`
// adds about DELAY_MS to each round trip. It stands in for `tc qdisc … netem delay`, which
// this machine's kernel lacks. Guarantees: bytes arrive in order, unchanged; it prints
// "listening" once ready and runs until killed.
import { connect, createServer } from 'node:net';

const [host, port, target, delay] = process.argv.slice(2);
const ms = Number(delay);

createServer((client) => {
  client.setNoDelay(true);
  const upstream = connect(Number(target), '127.0.0.1');
  upstream.setNoDelay(true);
  for (const s of [client, upstream]) s.on('error', () => client.destroy());
  client.on('data', (chunk) => (ms === 0 ? upstream.write(chunk) : setTimeout(() => upstream.write(chunk), ms)));
  upstream.on('data', (chunk) => client.write(chunk));
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}).listen(Number(port), host, () => console.log('listening'));
