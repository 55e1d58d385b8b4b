import { z } from "zod";
import { getMoneroWallet, MoneroWalletInputSchema, removeMoneroWallet, setMoneroWallet } from "@/lib/businesses/monero-wallet";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

const params = z.object({ businessId: businessIdParam });

export const GET = withAdmin(params, async ({ req, db, params }) => envelope(req, await getMoneroWallet(db, params.businessId)));

export const PUT = withAdmin(params, async ({ req, db, params }) => {
  const input = (await readBody(req, MoneroWalletInputSchema)).data;
  return envelope(req, await setMoneroWallet(db, params.businessId, input));
});

export const DELETE = withAdmin(params, async ({ req, db, params }) => envelope(req, await removeMoneroWallet(db, params.businessId)));

export const { POST, PATCH, OPTIONS } = otherMethods(["GET", "PUT", "DELETE"]);
