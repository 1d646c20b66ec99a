// The extensionTestsPath entry: VS Code's extension host calls run(), which runs every *.test.js beside this file with mocha.
import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

/**
 * Mocha's reporters print through Base.consoleLog (printf-style) to the extension host's stdout, which the harness
 * cannot read under code-server, so the same lines are also appended to RAG_E2E_MOCHA_OUT when set.
 */
function teeReporter(file: string): () => void {
  writeFileSync(file, '');
  const original = Mocha.reporters.Base.consoleLog;
  Mocha.reporters.Base.consoleLog = (...data: unknown[]) => {
    appendFileSync(file, `${format(...data)}\n`);
    original(...data);
  };
  return () => { Mocha.reporters.Base.consoleLog = original; };
}

export async function run(): Promise<void> {
  const out = process.env.RAG_E2E_MOCHA_OUT;
  const restore = out ? teeReporter(out) : () => undefined;
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 20_000, reporter: 'spec' });
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(path.join(__dirname, file));
  try {
    const failures = await new Promise<number>((resolve) => mocha.run(resolve));
    if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
  } finally {
    restore();
  }
}
