export declare const CENSOR: string;
export declare function secretsOf(env: Record<string, string | undefined>): string[];
export declare function redactor(secrets: string[]): { text(value: string): string; value<T>(v: T): unknown; add(values: (string | undefined)[]): void };
