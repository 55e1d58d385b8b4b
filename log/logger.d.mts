import type { Logger } from "pino";

type LogLevelName = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
/** Fields then a message (`log.warn({ chain }, "stalled")`), or a message alone. */
type LogMethod = (fieldsOrMessage: Record<string, unknown> | string, message?: string) => void;

export declare const log: Record<LogLevelName, LogMethod>;
export declare function logs(level: LogLevelName): boolean;
export declare function childLogger(bindings: Record<string, unknown>): Logger;
export type LogSettings = { level: LogLevelName | "silent"; format: "json" | "pretty" };
export declare function logSettings(env: Record<string, string | undefined>): LogSettings;
export declare function loggerSettings(): LogSettings;
export declare function addSecrets(values: (string | undefined)[]): void;
export declare function inRequest<T>(requestId: string, fn: () => T): T;
export declare function currentRequestId(): string | undefined;
export declare function routeConsoleToLog(): void;
export declare function logToStderr(): void;
