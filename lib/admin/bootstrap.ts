import type { Db } from "@/db/client";
import { countBusinesses } from "@/db/queries/businesses";
import { config } from "@/lib/config";
import { createBusiness } from "./businesses";

/**
 * Quick start (design §4): on an empty embedded database, create a test-mode business and print
 * its id, API key and webhook secret, with the admin token, so the next command can create a
 * payment. Production never does this.
 */
export async function bootstrapFirstRun(db: Db): Promise<void> {
  const cfg = config();
  if (cfg.production || (await countBusinesses(db)) > 0) return;
  const b = await createBusiness(db, { name: "My test business", mode: "test" });
  const base = cfg.publicBaseUrl;
  console.log(
    [
      "",
      "┌─ First run: a test-mode business was created ─────────────────────────",
      `│ Business id     ${b.businessId}`,
      `│ API key         ${b.apiKey}`,
      `│ Webhook secret  ${b.webhookSecret}`,
      `│ Admin token     ${cfg.adminToken ?? "(admin API disabled)"}`,
      "│ These are shown once (the admin token is kept in DATA_DIR/secrets.json).",
      "│ Create a payment:",
      `│   curl -X POST ${base}/v1/businesses/${b.businessId}/payments \\`,
      `│     -H "Authorization: Bearer ${b.apiKey}" \\`,
      `│     -H "Content-Type: application/json" -d '{"currency":"USD","amount":25}'`,
      "└────────────────────────────────────────────────────────────────────────",
      "",
    ].join("\n"),
  );
}
