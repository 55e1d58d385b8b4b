import { getDb } from "@/db/client";
import { getAuth } from "@/lib/accounts/auth";
import { changeMark } from "@/lib/dashboard/changes";
import { problemResponse } from "@/lib/http/respond";

/**
 * The change mark the dashboard's payments pages poll (components/dashboard/auto-refresh.tsx):
 * `{ "mark": "…" }` for the business's payments, or with `?payment=<id>` for one payment. A
 * route handler checks the session itself (pages get it from their layout): 401 without one, so
 * the page stops asking; 404 for another merchant's business or payment.
 */
export async function GET(req: Request, { params }: { params: Promise<{ businessId: string }> }) {
  const headers = { "cache-control": "no-store" };
  // Polling is not use: an open tab left alone must not keep its session alive past its 12 hours.
  const session = await (await getAuth()).api.getSession({ headers: req.headers, query: { disableRefresh: true } });
  if (!session) return Response.json({ mark: null }, { status: 401, headers });
  try {
    const payment = new URL(req.url).searchParams.get("payment") ?? undefined;
    const mark = await changeMark(await getDb(), session.user.id, (await params).businessId, payment);
    return Response.json({ mark }, { headers });
  } catch (e) {
    return problemResponse(req, e);
  }
}
