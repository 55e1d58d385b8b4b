import type { Db } from "@/db/client";
import { countBusinesses } from "@/db/queries/businesses";
import { config } from "@/lib/config";
import { createUser } from "@/lib/accounts/users";
import { createBusiness } from "./businesses";

/** The first run's dashboard user (example.com is reserved for examples: it reaches nobody). */
export const FIRST_RUN_EMAIL = "owner@example.com";

/**
 * Quick start (design §4): on an empty embedded database, create a test-mode business and its
 * owner's dashboard login, and print the business id, API key, webhook secret, the login and
 * the admin token, so the next command can create a payment and a browser can sign in.
 * Production never does this. The one text the process writes past the logger: it is for the
 * operator's eyes and must show the secrets the logger would redact.
 */
export async function bootstrapFirstRun(db: Db): Promise<void> {
  const cfg = config();
  if (cfg.production || (await countBusinesses(db)) > 0) return;
  const b = await createBusiness(db, { name: "My test business", mode: "test" });
  const owner = await createUser(db, { email: FIRST_RUN_EMAIL, name: "Owner", businessId: b.businessId, role: "owner" });
  const base = cfg.publicBaseUrl;
  process.stdout.write(
    [
      "",
      "┌─ First run: a test-mode business was created ─────────────────────────",
      `│ Business id     ${b.businessId}`,
      `│ API key         ${b.apiKey}`,
      `│ Webhook secret  ${b.webhookSecret}`,
      `│ Admin token     ${cfg.adminToken ?? "(admin API disabled)"}`,
      `│ Dashboard       ${base}/dashboard  (sign in as ${owner.email}, password ${owner.password ?? "(unchanged)"})`,
      "│ These are shown once (the admin token is kept in DATA_DIR/secrets.json).",
      "│ Create a payment:",
      `│   curl -X POST ${base}/v1/businesses/${b.businessId}/payments \\`,
      `│     -H "Authorization: Bearer ${b.apiKey}" \\`,
      `│     -H "Content-Type: application/json" -d '{"currency":"USD","amount":25}'`,
      "└────────────────────────────────────────────────────────────────────────",
      "",
    ].join("\n") + "\n",
  );
}
