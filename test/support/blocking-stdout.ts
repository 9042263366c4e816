// Loaded into every process `npm test` runs a test file in (`node --test --require`): makes
// this process's stdout blocking where it is a pipe. Guarantees: every result a test file's
// process streams to the test runner over that pipe is written before --test-force-exit ends
// the process. Without it Node.js (22 and 24) can exit with results still buffered, and the
// runner's summary then counts fewer tests than ran (nodejs/node#64833; a failure still fails
// the run through the file's exit code).
const stdout = process.stdout as unknown as { _handle?: { setBlocking?: (blocking: boolean) => void } };
stdout._handle?.setBlocking?.(true);
