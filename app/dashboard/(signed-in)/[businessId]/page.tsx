import { redirect } from "next/navigation";
import { requireMember } from "@/lib/accounts/session";

export default async function BusinessHome({ params }: { params: Promise<{ businessId: string }> }) {
  const { business } = await requireMember((await params).businessId);
  redirect(`/dashboard/${business.id}/payments`);
}
