import { getDb } from "@/db/client";
import { inngest } from "@/lib/background/inngest-client";
import { refreshRates } from "@/lib/rates/refresh";
import { config } from "@/lib/config";

/**
 * The market-rate refresher under Inngest. Cron fires once a minute; a run asks every
 * RATE_REFRESH_SECONDS within it (a step per try, a durable sleep between) — the function the
 * embedded runner calls. The shared schedule in the database lets only one try per period
 * fetch, whichever worker or instance makes it; `concurrency: 1` keeps this app's runs apart.
 */
export const refreshRatesFunction = inngest.createFunction(
  {
    id: "refresh-rates",
    name: "Refresh the market exchange rates",
    triggers: [{ cron: "* * * * *" }],
    concurrency: 1,
  },
  async ({ step }) => {
    const rates = config().rates;
    if (rates.providers.length === 0) return { tries: 0, fetched: 0 };
    const tries = Math.max(1, Math.floor(60_000 / rates.refreshMs));
    let fetched = 0;
    for (let i = 0; i < tries; i++) {
      const result = await step.run(`refresh-${i}`, async () => refreshRates(await getDb(), rates));
      if (result) fetched++;
      if (i < tries - 1) await step.sleep(`wait-${i}`, rates.refreshMs);
    }
    return { tries, fetched };
  },
);
