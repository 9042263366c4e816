// A real SMTP server in the test process (the smtp-server package) that keeps every mail it
// receives, parsed by mailparser as a mail client would read it; `refuse` makes it answer every
// recipient 550, as a server rejecting the mail does.
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface TestSmtp {
  url: string;
  mails: ParsedMail[];
  /** Resolves once `n` mails have arrived (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<ParsedMail[]>;
  refuse: boolean;
  close(): Promise<void>;
}

export async function startSmtp(auth?: { user: string; pass: string }): Promise<TestSmtp> {
  const mails: ParsedMail[] = [];
  const state = { refuse: false };
  const server = new SMTPServer({
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: auth === undefined,
    logger: false,
    onAuth(a, _session, cb) {
      if (auth && a.username === auth.user && a.password === auth.pass) cb(null, { user: a.username });
      else cb(new Error('Invalid username or password'));
    },
    onRcptTo(_address, _session, cb) {
      if (state.refuse) {
        const err = new Error('mailbox unavailable') as Error & { responseCode: number };
        err.responseCode = 550;
        cb(err);
      } else cb();
    },
    onData(stream, _session, cb) {
      simpleParser(stream).then(
        (m) => {
          mails.push(m);
          cb();
        },
        (err: Error) => cb(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const creds = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : '';
  return {
    url: `smtp://${creds}127.0.0.1:${port}`,
    mails,
    get refuse() {
      return state.refuse;
    },
    set refuse(v: boolean) {
      state.refuse = v;
    },
    async waitFor(n: number, ms = 5000) {
      const start = Date.now();
      while (mails.length < n) {
        if (Date.now() - start > ms) throw new Error(`${mails.length} of ${n} mails arrived in ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
