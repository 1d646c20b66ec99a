// Counting checks and the plain closing line CI logs end with ("7 passed, 0 failed"), for the e2e drivers.
import { log } from './codeServer.mjs';

export class Checks {
  passed = [];
  failed = [];

  pass(what) {
    this.passed.push(what);
    log(`ok    ${what}`);
  }

  fail(what) {
    this.failed.push(what);
    log(`FAIL  ${what}`);
  }

  /** Strict: the rest of the test builds on it, so a failure ends the driver. */
  must(ok, what, detail = '') {
    if (!ok) throw new Error(`${what}${detail ? `: ${detail}` : ''}`);
    this.pass(what);
  }

  /** Recorded and continued: one broken property should not hide the others. */
  expect(ok, what, detail = '') {
    if (ok) this.pass(what);
    else this.fail(`${what}${detail ? ` — ${detail}` : ''}`);
  }

  /** The closing line, printed last so a CI log's final line says how it went. */
  summary() {
    return closingLine(this.passed.length, this.failed.length);
  }
}

export const closingLine = (passed, failed) => `${passed} passed, ${failed} failed`;

/** Mocha's spec reporter ends with "  12 passing (3s)" and, when any failed, "  1 failing"; undefined if neither is there. */
export function mochaCounts(report) {
  const passing = /^\s*(\d+) passing\b/m.exec(report);
  const failing = /^\s*(\d+) failing\b/m.exec(report);
  if (!passing && !failing) return undefined;
  return { passed: Number(passing?.[1] ?? 0), failed: Number(failing?.[1] ?? 0) };
}
