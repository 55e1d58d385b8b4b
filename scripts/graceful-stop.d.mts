import type { Server } from "node:http";

export declare const DEFAULT_SHUTDOWN_TIMEOUT_SECONDS: number;
export declare function shutdownTimeoutMs(env: Record<string, string | undefined>): number;
export declare function shutdownTimeoutOrExit(env: Record<string, string | undefined>): number;
export declare function stopOnSignals(o: {
  server: Server;
  app: { close(): Promise<unknown> };
  timeoutMs: number;
  exit?: (code: number) => void;
  log?: Pick<Console, "info" | "error">;
}): void;
