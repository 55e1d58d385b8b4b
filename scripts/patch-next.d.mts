export declare function patchNextRuntimes(dir: string): string[];
