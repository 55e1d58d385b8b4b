import { ModeBadge } from "@/components/dashboard/mode-badge";
import { SectionNav } from "@/components/dashboard/section-nav";
import { requireMember } from "@/lib/accounts/session";
import { can } from "@/lib/accounts/roles";

/** A business's pages: the member check (404 for anyone else), its name, mode and sections. */
export default async function BusinessLayout({ children, params }: { children: React.ReactNode; params: Promise<{ businessId: string }> }) {
  const { business, role } = await requireMember((await params).businessId);
  const base = `/dashboard/${business.id}`;
  const sections = [
    { href: base, label: "Overview" },
    { href: `${base}/payments`, label: "Payments" },
    { href: `${base}/developers`, label: "Developers" },
    ...(can(role, "manage-settings") ? [{ href: `${base}/settings`, label: "Settings" }] : []),
    ...(can(role, "manage-members") ? [{ href: `${base}/members`, label: "Members" }] : []),
  ];
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">{business.name}</h1>
        <ModeBadge mode={business.mode} />
        <span className="text-sm text-slate-600">Business id {business.id} · your role: {role}</span>
      </div>
      {business.mode === "test" ? (
        <p className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          Test mode: payments are made on a simulated chain; no real coins move.
        </p>
      ) : null}
      <SectionNav sections={sections} home={base} />
      {children}
    </div>
  );
}
