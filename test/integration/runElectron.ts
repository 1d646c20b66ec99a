// Runs the same extension-host suite as run.mjs with @vscode/test-electron, the ecosystem's standard runner, for machines with internet.
//
// `npx tsx test/integration/runElectron.ts [vscode-version]`. test-electron downloads a VS Code build from
// Microsoft's servers, which the CI machines of this project cannot reach: there, `npm run test:integration`
// (code-server from the npm registry) runs this suite instead. Both load .e2e/out/suite/index.js.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../..');
  // The extension bundle, then the suite bundle (run.mjs owns that step so both runners test the same files).
  execFileSync(process.execPath, [path.join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(root, 'test/integration/run.mjs'), '--build-only'], { cwd: root, stdio: 'inherit' });

  const runDir = mkdtempSync(path.join(tmpdir(), 'rag-e2e-electron-'));
  const workspace = path.join(runDir, 'workspace');
  const userData = path.join(runDir, 'user-data');
  cpSync(path.join(root, 'test/integration/workspace'), workspace, { recursive: true });
  try {
    await runTests({
      version: process.argv[2] ?? 'stable',
      extensionDevelopmentPath: [root, path.join(root, 'test/integration/fixtureExtension')],
      extensionTestsPath: path.join(root, '.e2e/out/suite/index.js'),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', userData],
      // Mocha's report goes to stdout here; the suite reads settings from this user-data dir.
      extensionTestsEnv: { RAG_E2E_USER_DATA: userData },
    });
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`integration tests (test-electron) failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
