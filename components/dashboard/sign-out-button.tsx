"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { authClient } from "@/lib/accounts/client";

/** Signs out, then goes to `then` (the sign-in page by default). */
export function SignOutButton({ then = "/dashboard/sign-in" }: { then?: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await authClient.signOut();
        router.push(then);
        router.refresh();
      }}
      className="rounded-md px-2 py-1 text-sm font-medium text-slate-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-700"
    >
      Sign out
    </button>
  );
}
