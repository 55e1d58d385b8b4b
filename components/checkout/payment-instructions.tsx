import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { CopyButton } from "./copy-button";
import { QrCode } from "./qr-code";

type Props = {
  coinName: string;
  symbol: string;
  /** Whole coins to send now: the quoted amount, or what is still due after a partial payment. */
  amount: string;
  address: string;
  /** The wallet URI for exactly `amount` (BIP21 / EIP-681), or the bare address for other coins. */
  uri: string;
  /** The token's contract on a live chain (ERC-20, TRC-20): shown so the customer sends that token and no look-alike. */
  tokenContract?: string | null;
  /** The network to send on, as wallets name it ("Bitcoin Cash", "TRON"), and a token's standard there ("TRC-20") or null. */
  networkName: string;
  standard: string | null;
  heading: string;
  /** A TON payment's comment: the wallet must send it with the money, or the payment is not recognised. */
  comment?: string | null;
};

/** A URI a wallet app can open (bitcoin:, ethereum:, …), as opposed to a bare address. */
function isWalletUri(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(uri) && !/^(https?|javascript|data|vbscript):/i.test(uri);
}

/** An address to copy into the wallet: the deposit address, or the token's contract to check. */
type Copied = "amount" | "address" | "contract" | "comment";

/** A copy button in the checkout's language. */
function CheckoutCopyButton({ value, what }: { value: string; what: Copied }) {
  const t = useTranslations("checkout.copy");
  const text = { copy: t("copy"), copied: t("copied"), failed: t("failed"), copiedNotice: t(`${what}.copied`), failedNotice: t(`${what}.failed`) };
  return <CopyButton value={value} what={t(`${what}.name`)} text={text} />;
}

function AddressField({ label, value, what, testId }: { label: string; value: string; what: Copied; testId: string }) {
  return (
    <div className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 flex items-center justify-between gap-3">
        <code dir="ltr" className="min-w-0 font-mono text-sm break-all text-slate-900" data-testid={testId}>
          {value}
        </code>
        <CheckoutCopyButton value={value} what={what} />
      </dd>
    </div>
  );
}

/**
 * The amount's font size: the largest up to text-lg at which the amount and its ticker fit the
 * width left beside the copy button on one line (a wrapped amount is easy to mistype). A
 * monospace digit is at most 0.62 em wide, so `n` characters fit 100cqi (the container's width)
 * at 100cqi / (0.62 n). Browsers without container units keep the class's text-base.
 */
function amountFontSize(text: string): string {
  return `min(1.125rem, calc(100cqi / ${(text.length * 0.62).toFixed(2)}))`;
}

/** BTCPay-style payment box: QR code, amount and address with copy buttons, "Open in wallet". */
export function PaymentInstructions({ coinName, symbol, amount, address, uri, tokenContract, networkName, standard, heading, comment }: Props) {
  const t = useTranslations("checkout.instructions");
  const network = { network: networkName, standard: standard ?? "", b: (chunks: ReactNode) => <span className="font-semibold text-slate-900">{chunks}</span> };
  return (
    <section aria-labelledby="pay-heading" className="space-y-5">
      <h2 id="pay-heading" className="text-center text-sm font-semibold text-slate-700">
        {heading}
      </h2>
      <div className="flex justify-center">
        <div className="rounded-2xl p-2 shadow-sm ring-1 ring-slate-200">
          <QrCode value={uri} label={t("qrLabel", { amount, symbol, address })} />
        </div>
      </div>
      <dl className="space-y-3">
        <div className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t("amount")}</dt>
          <dd className="mt-1 flex items-center justify-between gap-3">
            <span className="@container min-w-0 flex-1">
              <span
                dir="ltr"
                className="block text-start font-mono text-base leading-7 font-semibold whitespace-nowrap text-slate-900 tabular-nums"
                style={{ fontSize: amountFontSize(`${amount} ${symbol}`) }}
                data-testid="coin-amount"
              >
                {amount} <span className="text-slate-500">{symbol}</span>
              </span>
            </span>
            <CheckoutCopyButton value={amount} what="amount" />
          </dd>
          <dd className="mt-1 text-xs text-slate-600" data-testid="network">
            {standard ? t.rich("onNetworkStandard", network) : t.rich("onNetwork", network)}
          </dd>
        </div>
        <AddressField label={t("address", { coin: coinName })} value={address} what="address" testId="deposit-address" />
        {tokenContract ? (
          <AddressField
            label={standard ? t("contractStandard", { symbol, standard }) : t("contract", { symbol })}
            value={tokenContract}
            what="contract"
            testId="token-contract"
          />
        ) : null}
        {comment ? <AddressField label={t("comment")} value={comment} what="comment" testId="payment-comment" /> : null}
      </dl>
      {comment ? (
        <p role="alert" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="comment-required">
          {t("commentRequired")}
        </p>
      ) : null}
      {isWalletUri(uri) ? (
        <a
          href={uri}
          className="flex min-h-11 w-full items-center justify-center gap-2 rounded-xl bg-brand px-4 text-sm font-semibold text-white shadow-sm hover:bg-brand-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
            <path d="M3 5a2 2 0 0 1 2-2h9a1 1 0 1 1 0 2H5v1h10a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5Zm11 6a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z" />
          </svg>
          {t("openWallet")}
        </a>
      ) : null}
    </section>
  );
}
