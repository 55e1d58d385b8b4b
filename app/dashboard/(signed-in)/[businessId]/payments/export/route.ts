import { getListDb } from "@/db/client";
import { getAuth } from "@/lib/accounts/auth";
import { exportPayments, streamOf } from "@/lib/dashboard/payments-export";
import { problemResponse } from "@/lib/http/respond";

/**
 * The Payments table's CSV download. A route handler, not a page, so it checks the session
 * itself (pages get it from their layout); membership and the query are checked by the service
 * before the first byte (404 for another merchant's business, 400 with the schema's field errors).
 */
export async function GET(req: Request, { params }: { params: Promise<{ businessId: string }> }) {
  const session = await (await getAuth()).api.getSession({ headers: req.headers });
  if (!session) return new Response(null, { status: 303, headers: { location: "/dashboard/sign-in", "cache-control": "no-store" } });
  try {
    const { business, lines } = await exportPayments(await getListDb(), session.user.id, (await params).businessId, new URL(req.url).searchParams);
    const file = `payments-${business.id}-${business.mode}-${new Date().toISOString().slice(0, 10)}.csv`;
    return new Response(streamOf(lines), {
      headers: {
        "content-type": "text/csv; charset=utf-8; header=present",
        "content-disposition": `attachment; filename="${file}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (e) {
    return problemResponse(req, e);
  }
}
