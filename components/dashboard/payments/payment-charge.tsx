import type { PaymentRecord } from "@/lib/payments/schemas";
import { formatCoin } from "./format";
import { card, h3, Item } from "./payment-overview";
import { ScrollRegion } from "./scroll-region";

type Charge = NonNullable<PaymentRecord["platformCryptoCharge"]>;

/**
 * What the customer was asked to pay in their coin, and every on-chain transaction seen for it
 * with its confirmations (a contract charge's record carries its first transaction only).
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
  return (
    <section aria-labelledby="charge" className={card}>
      <h3 id="charge" className={h3}>Charge</h3>
      <dl className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Item label="Coin">{charge.coinName ?? "—"}</Item>
        <Item label="Amount asked">{formatCoin(charge.amount)}</Item>
        <Item label={`Exchange rate (${p.currency ?? "currency"} per coin)`}>{charge.exchangeRate}</Item>
        <Item label="Underpaid">{charge.isUnderpaid ? "Yes" : "No"}</Item>
        <Item label="Deposit address">
          <span className="font-mono text-xs">{charge.address ?? "—"}</span>
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
              {transactions.map((t, i) => (
                <tr key={`${t.id}-${i}`} className="border-t border-slate-100" data-testid="transaction">
                  <td className="max-w-xs break-all px-3 py-2 font-mono text-xs">{t.id ?? "—"}</td>
                  <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
                    {formatCoin(t.amount)} {t.tokenName ?? ""}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{t.confirmations}</td>
                  <td className="px-3 py-2 tabular-nums">{t.blockNumber ?? "Not mined"}</td>
                  <td className="max-w-xs break-all px-3 py-2 font-mono text-xs">{t.fromAddress ?? "—"}</td>
                  <td className="px-3 py-2">{t.network ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
