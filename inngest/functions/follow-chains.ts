import { getDb } from "@/db/client";
import { inngest } from "@/lib/background/inngest-client";
import { CHAIN_POLL_MS, followConfiguredChains } from "@/lib/chains/follow";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { config } from "@/lib/config";

/** Ticks per run: Inngest's cron fires once a minute, and chains are followed every CHAIN_POLL_MS within it. */
export const TICKS_PER_RUN = Math.floor(60_000 / CHAIN_POLL_MS) - 1;

/**
 * The chain watchers under Inngest: every minute a run follows each configured chain every
 * CHAIN_POLL_MS (a step per tick, a durable sleep between), the same function the embedded
 * runner calls. The chains' leases in the database keep runs on several workers from following
 * one chain twice; `concurrency: 1` keeps this app's runs from overlapping.
 */
export const followChains = inngest.createFunction(
  {
    id: "follow-chains",
    name: "Follow the configured chains' nodes",
    triggers: [{ cron: "* * * * *" }],
    concurrency: 1,
  },
  async ({ step }) => {
    const chains = config().chains;
    if (Object.keys(chains.rpcUrls).length === 0) return { ticks: 0, chains: {} };
    const seen: Record<string, { to: number | null; error: string | null }> = {};
    for (let i = 0; i < TICKS_PER_RUN; i++) {
      const states = await step.run(`tick-${i}`, async () =>
        (await followConfiguredChains(await getDb(), chains, reconcilePayment)).map((s) => ({ chain: s.chain, to: s.lastResult?.to ?? null, error: s.lastError })),
      );
      for (const s of states) seen[s.chain] = { to: s.to, error: s.error };
      if (i < TICKS_PER_RUN - 1) await step.sleep(`wait-${i}`, CHAIN_POLL_MS);
    }
    return { ticks: TICKS_PER_RUN, chains: seen };
  },
);
