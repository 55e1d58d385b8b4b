import { z } from "zod";
import { businessIdParam, otherMethods, paymentIdParam } from "@/lib/http/route";
import { withApiKey } from "@/lib/accounts/route-auth";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { updateNote } from "@/lib/payments/read";
import { NoteRequestSchema } from "@/lib/payments/schemas";

const params = z.object({ businessId: businessIdParam, paymentId: paymentIdParam });

export const PUT = withApiKey(params, async ({ req, db, business, params }) => {
  const { note } = (await readBody(req, NoteRequestSchema)).data;
  return envelope(req, await updateNote(db, business, params.paymentId, note));
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods(["PUT"]);
