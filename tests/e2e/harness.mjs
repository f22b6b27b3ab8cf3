// What the browser tests (run.mjs, demo.mjs) share: Debian's Chromium with the flags that keep
// it headless and offline, PASS/FAIL lines with their tally, and a deadline that ends a test
// whatever hangs.
import { chromium } from 'playwright-core';

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];
const CLOSE_WAIT_MS = 10_000;

/** Debian's Chromium (never a download). */
export function launchChromium() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** Closes the browser, waiting at most 10 s. The wait's timer is cleared once the browser has
 *  closed: left running, it would keep Node alive for its whole length. */
export async function closeBrowser(browser) {
  let timer;
  await Promise.race([browser?.close(), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
}

/** Counts checks and prints one PASS/FAIL line each. */
export class Checks {
  passed = 0;
  failed = 0;

  check(label, ok, detail = '') {
    if (ok) this.passed++;
    else this.failed++;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${label}${!ok && detail ? ` (${detail})` : ''}`);
  }

  /** Prints "N passed, M failed" and sets the exit status (1 on a failure or no checks). */
  finish(suffix = '') {
    console.log(`${this.passed} passed, ${this.failed} failed${suffix}`);
    process.exitCode = this.failed > 0 || this.passed === 0 ? 1 : 0;
  }

  /** Ends the process with a failure if `run` has not finished within `ms`. */
  async underDeadline(ms, what, run) {
    const deadline = setTimeout(() => {
      console.log(`FAIL ${what} did not finish within ${ms / 1000} s`);
      console.log(`${this.passed} passed, ${this.failed + 1} failed`);
      process.exit(1); // Playwright kills the browser it launched when this process exits
    }, ms);
    try {
      await run();
    } finally {
      clearTimeout(deadline);
    }
  }
}
