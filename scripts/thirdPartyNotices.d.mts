// Types of thirdPartyNotices.mjs (plain JavaScript so that esbuild.mjs can import it without a TypeScript loader).
export declare const NOTICES_FILE: string;
export declare function bundledPackageDirs(metafiles: readonly { inputs: Record<string, unknown> }[]): string[];
export declare function packageNotice(dir: string): string;
export declare function writeThirdPartyNotices(root: string, metafiles: readonly { inputs: Record<string, unknown> }[], outdir: string): string[];
