export declare const ORIGINAL: string;
export declare const PATCHED: string;
export declare const FILES: string[];
export declare function patchNextRuntimes(dir: string): string[];
export declare function installedRuntimeDir(): string;
