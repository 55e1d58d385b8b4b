import type { PaymentRecord } from "@/lib/payments/schemas";
import { formatCoinAmount, formatRate, isCoin } from "../format";
import { coinName, networkName } from "../names";
import { NamedValue } from "../named-value";
import { card, h3, Item } from "./payment-overview";
import { ScrollRegion } from "./scroll-region";
import { COINS } from "@/domain/coins";

type Charge = NonNullable<PaymentRecord["platformCryptoCharge"]>;

/**
 * What the customer was asked to pay in their coin, and every on-chain transaction seen for it
 * with its confirmations (a contract charge's record carries its first transaction only). Coins
 * and networks by name, the API's values beside them; the rate in the payment's currency, its
 * exact value in the tooltip.
 */
export function PaymentCharge({ payment: p }: { payment: PaymentRecord }) {
  const charge: Charge | undefined = p.platformCryptoCharge ?? p.contractCharge;
  if (!charge) {
    return (
      <section aria-labelledby="charge" className={card}>
        <h3 id="charge" className={h3}>Charge</h3>
        <p className="text-sm text-slate-700">The customer has not chosen a coin yet.</p>
      </section>
    );
  }
  const transactions = charge.transactions ?? (charge.transaction ? [charge.transaction] : []);
  const coin = charge.coinName;
  const symbol = isCoin(coin) ? COINS[coin].symbol : "coin";
  const network = isCoin(coin) ? networkName(COINS[coin].network, coin) : null;
  return (
    <section aria-labelledby="charge" className={card}>
      <h3 id="charge" className={h3}>Charge</h3>
      <dl className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Item label="Coin">{coin ? <NamedValue named={coinName(coin)} stacked /> : "—"}</Item>
        {network ? <Item label="Network">{network.label}</Item> : null}
        <Item label="Amount asked">
          <span className="tabular-nums">{formatCoinAmount(charge.amount, coin)}</span>
        </Item>
        <Item label={`Exchange rate (per ${symbol})`}>
          <span className="tabular-nums" title={`${charge.exchangeRate} ${p.currency ?? ""}`.trim()} data-testid="exchange-rate">
            {formatRate(charge.exchangeRate, p.currency)}
          </span>
        </Item>
        <Item label="Underpaid">{charge.isUnderpaid ? "Yes" : "No"}</Item>
        <Item label="Deposit address">
          <span className="break-all font-mono text-xs">{charge.address ?? "—"}</span>
        </Item>
        {charge.walletName ? <Item label="Wallet">{charge.walletName}</Item> : null}
      </dl>
      <h4 className="mb-2 text-sm font-semibold text-slate-900">On-chain transactions</h4>
      {transactions.length === 0 ? (
        <p className="text-sm text-slate-700">None seen yet.</p>
      ) : (
        <ScrollRegion label="On-chain transactions">
          <table className="min-w-full text-sm">
            <caption className="sr-only">Transactions paying this charge, with their confirmations</caption>
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">Transaction</th>
                <th scope="col" className="px-3 py-2 text-right">Amount</th>
                <th scope="col" className="px-3 py-2 text-right">Confirmations</th>
                <th scope="col" className="px-3 py-2">Block</th>
                <th scope="col" className="px-3 py-2">From</th>
                <th scope="col" className="px-3 py-2">Network</th>
              </tr>
            </thead>
            <tbody>
              {transactions.map((t, i) => {
                const net = networkName(t.network, t.tokenName ?? coin);
                return (
                  <tr key={`${t.id}-${i}`} className="border-t border-slate-100" data-testid="transaction">
                    <td className="max-w-xs break-all px-3 py-2 font-mono text-xs">{t.id ?? "—"}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums" title={t.tokenName}>
                      {formatCoinAmount(t.amount, t.tokenName ?? coin)}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{t.confirmations}</td>
                    <td className="px-3 py-2 tabular-nums">{t.blockNumber ?? "Not mined"}</td>
                    <td className="max-w-xs break-all px-3 py-2 font-mono text-xs">{t.fromAddress ?? "—"}</td>
                    <td className="px-3 py-2">{net ? <span title={net.api}>{net.label}</span> : "—"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
