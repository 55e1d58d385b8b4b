"use client";

import { useTranslations } from "next-intl";
import { useActionState, useEffect, useRef, useState, type ReactNode } from "react";
import { chooseCoinAction, type ChooseResult } from "@/lib/checkout/choose-action";
import type { AssetChoice } from "@/lib/checkout/offering";
import type { CoinName } from "@/domain/coins";
import { ChoiceButton } from "./choice-button";
import { FormError } from "./form-error";

type Props = {
  paymentId: string;
  assets: AssetChoice[];
  current?: CoinName;
  /** The asset holding the current coin, marked as chosen in the asset list. */
  currentAsset?: string;
  /** Logos drawn on the server, by `asset:<ticker>` and `network:<ticker>:<network>`. */
  icons: Record<string, ReactNode>;
};

const Chevron = () => (
  <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 fill-current text-slate-400 rtl:-scale-x-100">
    <path d="M7.2 4.2a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.5 10 7.2 5.6a1 1 0 0 1 0-1.4Z" />
  </svg>
);

/**
 * The customer's choice of coin in two steps: the assets, then, for an asset offered on several
 * networks, its networks. Choosing a coin creates the charge on the server. Every button is a
 * submit button of one form, so the page works before hydration and without JavaScript: the
 * server then answers an asset step with the page showing its networks.
 */
export function CoinChoiceForm({ paymentId, assets, current, currentAsset, icons }: Props) {
  const t = useTranslations("checkout.choose");
  const [state, action, pending] = useActionState<ChooseResult | null, FormData>(chooseCoinAction, null);
  const [open, setOpen] = useState<string | null>(state?.asset ?? null);
  const asset = assets.find((a) => a.symbol === open && a.networks.length > 1);
  const heading = useRef<HTMLHeadingElement>(null);
  const assetButtons = useRef(new Map<string, HTMLButtonElement>());
  const stepped = useRef<string | null>(null);

  // Keyboard and screen-reader users follow the step: to the networks' heading, and back to the asset they left.
  useEffect(() => {
    if (stepped.current === null) return;
    if (open) heading.current?.focus();
    else assetButtons.current.get(stepped.current)?.focus();
  }, [open]);
  const step = (to: string | null) => {
    stepped.current = to ?? open ?? "";
    setOpen(to);
  };

  return (
    <form action={action} aria-busy={pending}>
      <input type="hidden" name="paymentId" value={paymentId} />
      {assets.every((a) => !a.available) ? (
        <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="rates-unavailable">
          {t("ratesUnavailable")}
        </p>
      ) : null}
      {asset ? (
        <div data-testid="network-step">
          <h3 ref={heading} tabIndex={-1} className="text-sm font-semibold text-slate-900 focus:outline-none">
            {t("networkHeading", { asset: asset.name, symbol: asset.symbol })}
          </h3>
          <p className="mt-1 mb-3 text-xs text-slate-600">{t("networkHint", { symbol: asset.symbol })}</p>
          <ul className="grid grid-cols-1 gap-2" aria-label={t("networksLabel", { asset: asset.name })}>
            {asset.networks.map((n) => (
              <li key={n.coin}>
                <ChoiceButton
                  name="coin"
                  value={n.coin}
                  icon={icons[`network:${asset.symbol}:${n.network}`]}
                  title={n.networkName}
                  detail={n.standard ? `${asset.symbol} · ${n.standard}` : asset.symbol}
                  available={n.available}
                  selected={n.coin === current}
                  chooses
                  hasCurrent={current !== undefined}
                  pending={pending}
                />
              </li>
            ))}
          </ul>
          <button
            type="submit"
            name="asset"
            value=""
            disabled={pending}
            onClick={(e) => {
              e.preventDefault();
              step(null);
            }}
            className="mt-3 inline-flex min-h-11 items-center gap-1 rounded-lg px-2 text-sm font-medium text-indigo-700 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            <span aria-hidden="true">‹</span> {t("allCoins")}
          </button>
        </div>
      ) : (
        <ul className="grid grid-cols-1 gap-2 min-[360px]:grid-cols-2" aria-label={t("listLabel")}>
          {assets.map((a) => {
            const many = a.networks.length > 1;
            const only = a.networks[0];
            return (
              <li key={a.symbol}>
                <ChoiceButton
                  name={many ? "asset" : "coin"}
                  value={many ? a.symbol : only.coin}
                  icon={icons[`asset:${a.symbol}`]}
                  title={a.name}
                  detail={
                    many
                      ? t("assetNetworks", { symbol: a.symbol, count: a.networks.length })
                      : only.standard
                        ? t("assetOn", { symbol: a.symbol, network: only.networkName })
                        : a.symbol
                  }
                  available={a.available}
                  selected={a.symbol === currentAsset}
                  chooses={!many}
                  hasCurrent={current !== undefined}
                  pending={pending}
                  onStep={many ? () => step(a.symbol) : undefined}
                  ref={(el) => {
                    if (el) assetButtons.current.set(a.symbol, el);
                    else assetButtons.current.delete(a.symbol);
                  }}
                  trailing={many ? <Chevron /> : null}
                />
              </li>
            );
          })}
        </ul>
      )}
      {pending ? (
        <p role="status" className="mt-3 text-sm text-slate-600">
          {t("preparing")}
        </p>
      ) : null}
      <FormError result={state} />
    </form>
  );
}
