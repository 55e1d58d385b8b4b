"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { CheckoutView } from "@/lib/checkout/view";
import { viewFingerprint } from "./fingerprint";

const POLL_MS = 2000;

/**
 * Keeps the page live without a reload: polls the payment's state every 2 s and refreshes the
 * server-rendered page when anything the customer sees has changed. Stops once the payment is
 * final and shown as such. Renders a small connection indicator.
 */
export function LiveUpdates({ paymentId, fingerprint, final }: { paymentId: string; fingerprint: string; final: boolean }) {
  const t = useTranslations("checkout.live");
  const router = useRouter();
  const [offline, setOffline] = useState(false);
  const current = useRef(fingerprint);

  useEffect(() => {
    current.current = fingerprint;
  }, [fingerprint]);

  useEffect(() => {
    if (final) return;
    let stopped = false;
    const poll = async () => {
      if (document.hidden) return;
      try {
        const res = await fetch(`/pay/${paymentId}/state`, { cache: "no-store", headers: { accept: "application/json" } });
        if (stopped) return;
        if (!res.ok) {
          setOffline(res.status !== 404);
          return;
        }
        const view = (await res.json()) as CheckoutView;
        setOffline(false);
        if (!stopped && viewFingerprint(view) !== current.current) router.refresh();
      } catch {
        if (!stopped) setOffline(true);
      }
    };
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [paymentId, final, router]);

  if (final) return null;
  return (
    <p className="flex items-center justify-center gap-2 text-xs text-slate-500">
      <span
        aria-hidden="true"
        className={`inline-block size-2 rounded-full ${offline ? "bg-amber-500" : "animate-pulse bg-emerald-500"}`}
      />
      {offline ? t("offline") : t("updating")}
    </p>
  );
}
