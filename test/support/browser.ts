// Debian's Chromium for the browser tests, driven by playwright-core: why a browser test is
// skipped (only when /usr/bin/chromium is absent outside CI; CI installs it, so there it
// fails instead), and one headless launch with the same switches for every browser test.
import * as fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** The skip reason for the browser test `name` (printed as a `# SKIP` line), or false. */
export function browserSkip(name: string, what: string): string | false {
  if (fs.existsSync(CHROMIUM) || process.env.CI) return false;
  const reason = `${CHROMIUM} is not installed (apt-get install -y chromium); the browser check of ${what} did not run`;
  process.stdout.write(`# SKIP ${name}: ${reason}\n`);
  return reason;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}
