"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";

/** How often a visible page asks whether its data changed. */
const POLL_MS = 4000;

/**
 * Keeps a server-rendered dashboard page current without a reload: every few seconds, while the
 * tab is visible, it asks `url` for the change mark of what the page shows (lib/dashboard/
 * changes.ts) and, when the mark differs from the one the page was rendered with, re-renders the
 * page on the server (`router.refresh()`): the new data replaces the old in place, the form
 * fields, focus and scroll position stay. A hidden tab does not ask; it asks at once when shown
 * again. A 401 (the session ended) or 404 stops it. The line it renders says the page is live.
 */
export function AutoRefresh({ url, mark }: { url: string; mark: string }) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [state, setState] = useState<"live" | "offline" | "stopped">("live");
  const current = useRef(mark);

  useEffect(() => {
    current.current = mark;
  }, [mark]);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      if (!stopped && !document.hidden) timer = setTimeout(() => void poll(), POLL_MS);
    };
    const poll = async () => {
      if (stopped || document.hidden) return;
      try {
        const res = await fetch(url, { cache: "no-store", headers: { accept: "application/json" } });
        if (stopped) return;
        if (res.status === 401 || res.status === 404) {
          stopped = true;
          setState("stopped");
          return;
        }
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const { mark: next } = (await res.json()) as { mark: string };
        setState("live");
        if (next !== current.current) {
          current.current = next;
          startTransition(() => router.refresh());
        }
      } catch {
        if (!stopped) setState("offline");
      }
      schedule();
    };
    const onVisibility = () => {
      if (document.hidden) clearTimeout(timer);
      else if (!stopped) void poll();
    };
    document.addEventListener("visibilitychange", onVisibility);
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [url, router]);

  if (state === "stopped") return null;
  return (
    <p className="flex items-center gap-2 text-xs text-slate-600" data-testid="auto-refresh">
      <span aria-hidden="true" className={`inline-block size-2 rounded-full ${state === "offline" ? "bg-amber-500" : "bg-emerald-600"}`} />
      {state === "offline" ? "Cannot reach the server; retrying…" : "Updates by itself"}
    </p>
  );
}
