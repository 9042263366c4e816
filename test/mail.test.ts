// The dashboard's mail (src/mail) against a real SMTP server in this process (smtp-server),
// read as a mail client reads it (mailparser): text and HTML parts of one template, escaped
// data, one mail per event across two instances on SQLite and on Redis, failures recorded
// and never thrown, the outbox when no SMTP server is set, and the options' checks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAccounts, systemClock, type AccessAccounts } from '../src/access';
import { Mailer, checkMailOptions, render } from '../src/mail';
import { startSmtp, type TestSmtp } from './support/smtp';
import { REDIS, dropPrefixes, redisUp } from './support/redis';

let smtp: TestSmtp;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-test-'));
const redisPrefix = `mail-test-${randomBytes(4).toString('hex')}:`;

before(async () => {
  smtp = await startSmtp({ user: 'mailer', pass: 'p@ss word' });
});
after(async () => {
  await smtp.close();
  fs.rmSync(dir, { recursive: true, force: true });
  if (await redisUp()) await dropPrefixes([redisPrefix]);
});

const reset = { link: 'https://api.example.com/dashboard/reset/abc', hours: 24 };

describe('templates', () => {
  test('one template makes both parts: the HTML is the text escaped, paragraphs kept, links linked', () => {
    const r = render('payment', {
      link: 'https://x.example/dashboard/plans',
      billingText: 'Pay <b>now</b> & "quickly": https://pay.example/?a=1&b=2.',
      service: 'Test API',
      dashboard: 'https://x.example/dashboard',
    });
    assert.equal(r.subject, 'Payment required for your Test API account');
    assert.match(r.text, /Pay <b>now<\/b> & "quickly": https:\/\/pay\.example\/\?a=1&b=2\.\n$/);
    assert.ok(!r.html.includes('<b>'), 'what the operator or a user typed never becomes markup');
    assert.match(r.html, /Pay &lt;b&gt;now&lt;\/b&gt; &amp; &quot;quickly&quot;/);
    assert.match(
      r.html,
      /<a href="https:\/\/pay\.example\/\?a=1&amp;b=2">https:\/\/pay\.example\/\?a=1&amp;b=2<\/a>\./,
    );
    assert.equal((r.html.match(/<p>/g) ?? []).length, r.text.trim().split(/\n\n/).length);
  });

  test('an invitation to a paid plan does not say the trial needs no card', () => {
    const common = { link: 'https://x/s', days: 7, service: 'S', dashboard: 'https://x' };
    const trial = render('invite', { ...common, plan: 'trial', trial: true, price: '' });
    const paid = render('invite', { ...common, plan: 'starter', trial: false, price: '€29 a month' });
    assert.match(trial.text, /needs no card/);
    assert.doesNotMatch(paid.text, /no card/);
    assert.match(paid.text, /The starter plan: €29 a month/);
  });
});

describe('options', () => {
  test('--smtp-url needs --mail-from and an smtp scheme; messages never show the password', () => {
    assert.throws(() => checkMailOptions({ smtpUrl: 'smtp://u:secret@h:25' }), /--smtp-url needs --mail-from/);
    assert.throws(
      () => checkMailOptions({ smtpUrl: 'http://u:secret@h', from: 'a@b.c' }),
      (e: Error) => /must start smtp:\/\//.test(e.message) && !e.message.includes('secret'),
    );
    assert.doesNotThrow(() => checkMailOptions({ smtpUrl: 'smtps://u:p@h:465', from: 'a@b.c' }));
    assert.doesNotThrow(() => checkMailOptions({}));
  });
});

for (const kind of ['sqlite', 'redis'] as const) {
  describe(`mail on ${kind}`, () => {
    let skip: string | false = false;
    let one: AccessAccounts;
    let two: AccessAccounts;
    before(async () => {
      if (kind === 'redis' && !(await redisUp())) {
        if (process.env.CI) throw new Error(`no Redis at ${REDIS} and CI is set`);
        skip = `SKIPPED: no Redis at ${REDIS}`;
        return;
      }
      const spec = kind === 'sqlite' ? `sqlite:${path.join(dir, 'access.sqlite')}` : `${REDIS}?prefix=${redisPrefix}`;
      one = await openAccounts(spec, { purpose: 'admin' });
      two = await openAccounts(spec, { purpose: 'admin' });
    });
    after(async () => {
      await one?.close();
      await two?.close();
    });

    test('sent over SMTP with text and HTML; the store keeps the record without the bodies', async (t) => {
      if (skip) return t.skip(skip);
      const mailer = new Mailer(
        one.outbox,
        { smtpUrl: smtp.url, from: 'Catalogue <no-reply@example.com>' },
        systemClock,
      );
      mailer.setDashboardUrl('https://api.example.com/dashboard');
      const before = smtp.mails.length;
      const event = `reset:${kind}:${randomBytes(4).toString('hex')}`;
      assert.equal(await mailer.send(event, 'dev@example.com', 'reset', reset), 'sent');
      const [m] = (await smtp.waitFor(before + 1)).slice(before);
      assert.equal(m.subject, 'Choose a new password for Cosmetics Catalogue API');
      assert.deepEqual(m.from?.value, [{ name: 'Catalogue', address: 'no-reply@example.com' }]);
      assert.equal((m.to as { text: string }).text, 'dev@example.com');
      assert.match(m.text ?? '', /https:\/\/api\.example\.com\/dashboard\/reset\/abc/);
      assert.match(String(m.html), /<a href="https:\/\/api\.example\.com\/dashboard\/reset\/abc">/);
      const { mails } = await one.outbox.mails(0, 50);
      const kept = mails.find((x) => x.subject === m.subject && x.state === 'sent');
      assert.ok(kept, 'the log lists the sent mail');
      assert.equal(kept.text, '', 'a sent mail keeps no text: its link lives only in the mailbox');
      assert.equal(kept.html, '');
      mailer.close();
    });

    test('one mail per event: the same event asked 10 times on each of two instances at once', async (t) => {
      if (skip) return t.skip(skip);
      const opts = { smtpUrl: smtp.url, from: 'no-reply@example.com' };
      const a = new Mailer(one.outbox, opts, systemClock);
      const b = new Mailer(two.outbox, opts, systemClock);
      const before = smtp.mails.length;
      const event = `usage-80:${kind}:acct:2026-11`;
      const data = { plan: 'starter', percent: 80, calls: '8,000', allowance: '10,000 included calls', hardCap: false };
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).send(event, 'dev@example.com', 'usage', { ...data, link: 'https://x/plans' }),
        ),
      );
      assert.deepEqual(
        outcomes.filter((o) => o !== 'duplicate'),
        ['sent'],
      );
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(smtp.mails.length, before + 1, 'exactly one mail reached the server');
      a.close();
      b.close();
    });

    test('a refused mail is recorded as failed, with the reason, and never throws', async (t) => {
      if (skip) return t.skip(skip);
      const mailer = new Mailer(one.outbox, { smtpUrl: smtp.url, from: 'no-reply@example.com' }, systemClock);
      smtp.refuse = true;
      try {
        assert.equal(await mailer.send(`fail:${kind}`, 'dev@example.com', 'reset', reset), 'failed');
      } finally {
        smtp.refuse = false;
      }
      const { mails } = await one.outbox.mails(0, 50);
      const failed = mails.find((m) => m.state === 'failed');
      assert.ok(failed);
      assert.match(failed.error, /550/);
      assert.ok(!failed.error.includes('p@ss'), 'no credential in the recorded reason');
      const wrong = new Mailer(
        one.outbox,
        { smtpUrl: smtp.url.replace('p%40ss%20word', 'wrong'), from: 'x@example.com' },
        systemClock,
      );
      assert.equal(await wrong.send(`auth:${kind}`, 'dev@example.com', 'reset', reset), 'failed');
      mailer.close();
      wrong.close();
    });

    test('without SMTP the mail waits in the outbox, bodies and all, listed newest first', async (t) => {
      if (skip) return t.skip(skip);
      const mailer = new Mailer(two.outbox, {}, systemClock);
      assert.equal(mailer.mode, 'outbox');
      const before = smtp.mails.length;
      assert.equal(await mailer.send(`outbox:${kind}`, 'o@example.com', 'reset', reset), 'outbox');
      assert.equal(await mailer.send(`outbox:${kind}`, 'o@example.com', 'reset', reset), 'duplicate');
      const { mails, total } = await one.outbox.mails(0, 1);
      assert.ok(total >= 1);
      assert.equal(mails[0].to, 'o@example.com');
      assert.equal(mails[0].state, 'outbox');
      assert.match(mails[0].text, /reset\/abc/);
      assert.deepEqual(await one.outbox.mail(mails[0].id), mails[0]);
      assert.equal(smtp.mails.length, before, 'nothing went to the SMTP server');
    });
  });
}
