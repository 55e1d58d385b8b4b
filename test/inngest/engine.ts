import type { InngestTestEngine } from "@inngest/test";

type Checkpoint = { type: string; retriable?: boolean | string; step?: { op?: string; error?: { name?: string } } };

/**
 * One execution's checkpoint: what the SDK answers Inngest. @inngest/test 1.0's `execute()` hands
 * back the serialized step error without `retriable` — the Retry-After time Inngest receives — so
 * read it from the engine's single-execution result (a protected method of the engine).
 */
export async function executeOnce(t: InngestTestEngine, opts: InngestTestEngine.InlineOptions): Promise<Checkpoint> {
  const exec = (t as unknown as { individualExecution(o: InngestTestEngine.InlineOptions): Promise<{ result: Checkpoint }> })
    .individualExecution;
  const { result } = await exec.call(t, opts);
  return result;
}
