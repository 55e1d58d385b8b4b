/** Stops what instrumentation started; resolves to whether it finished before `until` aborted. */
export type ShutdownStep = (until: AbortSignal) => Promise<boolean>;
export declare function onShutdown(fn: ShutdownStep): void;
export declare function runShutdown(until: AbortSignal): Promise<boolean>;
