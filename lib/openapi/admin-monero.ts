import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { MoneroWalletInputSchema, MoneroWalletSchema, VIEW_KEY_NOTE } from "@/lib/businesses/monero-wallet";
import { adminErrors, envelopeOf, jsonBody, success } from "./components";
import { businessIdPath } from "./params";
import { z } from "zod";

const admin = (op: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({ tags: ["Admin"], security: [{ adminBearer: [] }], ...op });
const business = z.object({ businessId: businessIdPath });
const walletEnvelope = envelopeOf(MoneroWalletSchema, "MoneroWalletEnvelope");

/** A business's Monero wallet: what a live business gives to be paid in MONERO (lib/businesses/monero-wallet.ts). */
export const moneroPaths: ZodOpenApiPathsObject = {
  "/admin/v1/businesses/{businessId}/monero-wallet": {
    get: admin({
      operationId: "adminGetMoneroWallet",
      summary: "Get the business's Monero wallet",
      description: "The primary address and restore height the business gave, and whether the view-only wallet is made yet. The view key is never returned.",
      requestParams: { path: business },
      responses: { 200: success("The wallet.", walletEnvelope), ...adminErrors(400, 401, 404) },
    }),
    put: admin({
      operationId: "adminSetMoneroWallet",
      summary: "Set the business's Monero wallet",
      description: `Sets the wallet a live business is paid in MONERO to: its primary address, private view key and restore height. ${VIEW_KEY_NOTE} The view key must belong to the address (its public view key is derived and compared) and the address be of the network the Monero node serves: else a 400 naming the field. The service makes a view-only wallet from them in its monero-wallet-rpc at the first Monero payment, and one subaddress per payment there; new keys make a new wallet.`,
      requestParams: { path: business },
      requestBody: jsonBody(MoneroWalletInputSchema, {
        description: "The wallet's address, view key and restore height.",
        example: {
          primaryAddress: "4BGTAnTpSw7eTf41TZkBSQAALhCRa8Vzg3ooHzcjnNrLVuYmzVoFPaeRbBiqYw2SCv3ZtS7wqqHCgeKJg5dKXFAuJAMgW5k",
          privateViewKey: "bbd5c3561893b3d74abf81b967671ce7911652c04a6bef5d12e587fd778e450c",
          restoreHeight: 3_500_000,
        },
      }),
      responses: { 200: success("The wallet as set.", walletEnvelope), ...adminErrors(400, 401, 404, 413, 415) },
    }),
    delete: admin({
      operationId: "adminRemoveMoneroWallet",
      summary: "Remove the business's Monero wallet",
      description: "Forgets the keys: the business no longer offers MONERO, and its open Monero payments are no longer watched.",
      requestParams: { path: business },
      responses: { 200: success("The wallet removed.", walletEnvelope), ...adminErrors(400, 401, 404) },
    }),
  },
};
