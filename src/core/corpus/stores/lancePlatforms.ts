// Which of LanceDB's native modules each VS Code platform needs: the one table behind the platform-specific .vsix
// (scripts/packageVsix.ts ships the module named here) and the embedded store's message where a package lacks it.

/** LanceDB's Node binding, pinned; its native module is the package `@lancedb/lancedb-<binary>` of the same version. */
export const LANCEDB_VERSION = '0.31.0';

/**
 * VS Code's platform targets (`vsce package --target`) → the LanceDB native module built for it (the file
 * `lancedb.<binary>.node` of `@lancedb/lancedb-<binary>`), or undefined where LanceDB publishes none for that version.
 */
export const LANCE_BINARIES = {
  'linux-x64': 'linux-x64-gnu',
  'linux-arm64': 'linux-arm64-gnu',
  'linux-armhf': undefined,
  'alpine-x64': 'linux-x64-musl',
  'alpine-arm64': 'linux-arm64-musl',
  'darwin-arm64': 'darwin-arm64',
  'darwin-x64': undefined,
  'win32-x64': 'win32-x64-msvc',
  'win32-arm64': 'win32-arm64-msvc',
} as const satisfies Record<string, string | undefined>;

export type VsixTarget = keyof typeof LANCE_BINARIES;

export const isVsixTarget = (value: string): value is VsixTarget => Object.hasOwn(LANCE_BINARIES, value);

/** The npm package holding a binary, and its file name: what the loader looks for beside its bundle. */
export const lancePackage = (binary: string) => `@lancedb/lancedb-${binary}`;
export const lanceFile = (binary: string) => `lancedb.${binary}.node`;

/** The command that puts another platform's module into node_modules (npm refuses a foreign platform without --force). */
export const fetchCommand = (binary: string) => `npm install --no-save --force ${lancePackage(binary)}@${LANCEDB_VERSION}`;

/**
 * The VS Code target of a machine: Alpine (musl) Linux has targets of its own. `musl` says whether the C library is
 * musl; Node's own report tells (its header names a glibc version only where glibc runs).
 */
export function vsixTargetOf(platform: string, arch: string, musl: boolean): VsixTarget | undefined {
  const cpu = arch === 'arm' ? 'armhf' : arch;
  const name = platform === 'linux' && musl ? `alpine-${cpu}` : `${platform}-${cpu}`;
  return isVsixTarget(name) ? name : undefined;
}

/** This process's VS Code target, or undefined on a platform VS Code publishes no build for. */
export function currentVsixTarget(): VsixTarget | undefined {
  return vsixTargetOf(process.platform, process.arch, process.platform === 'linux' && isMusl());
}

function isMusl(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header !== undefined && !report.header.glibcVersionRuntime;
}
