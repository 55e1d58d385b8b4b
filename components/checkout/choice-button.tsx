import type { ReactNode, Ref } from "react";
import { useTranslations } from "next-intl";

type Props = {
  /** `coin` chooses a coin; `asset` steps to an asset's networks (or back, with an empty value). */
  name: "coin" | "asset";
  value: string;
  icon: ReactNode;
  title: string;
  detail: ReactNode;
  available: boolean;
  selected: boolean;
  /** Whether the button chooses (aria-pressed tells the current choice) or steps to a list (aria-current marks it). */
  chooses: boolean;
  /** True while the current choice is shown, so aria-pressed is only set where there is one. */
  hasCurrent: boolean;
  pending: boolean;
  onStep?: () => void;
  ref?: Ref<HTMLButtonElement>;
  trailing?: ReactNode;
};

/**
 * One row of the coin picker: a submit button with a logo, a name and a detail line, so it
 * works before hydration and without JavaScript. An unavailable choice stays focusable and named
 * (aria-disabled, not disabled): choosing it still asks the server, which answers why it cannot
 * be quoted now.
 */
export function ChoiceButton({ ref, ...p }: Props) {
  const t = useTranslations("checkout.choose");
  const look = !p.available
    ? "bg-slate-50 ring-slate-200 cursor-not-allowed"
    : p.selected
      ? "bg-indigo-50 ring-2 ring-indigo-500"
      : "bg-white ring-slate-200 hover:bg-slate-50 hover:ring-slate-300";
  return (
    <button
      type="submit"
      name={p.name}
      value={p.value}
      ref={ref}
      disabled={p.pending}
      aria-disabled={p.available ? undefined : true}
      aria-pressed={p.chooses && p.hasCurrent ? p.selected : undefined}
      aria-current={!p.chooses && p.selected ? "true" : undefined}
      onClick={
        p.onStep
          ? (e) => {
              // In the browser the picker steps itself; the form posts the same step without JavaScript.
              e.preventDefault();
              p.onStep!();
            }
          : undefined
      }
      className={`flex h-full min-h-14 w-full items-center gap-3 rounded-xl px-3 py-2 text-start ring-1 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-wait disabled:opacity-60 ${look}`}
    >
      <span className={`inline-flex shrink-0 ${p.available ? "" : "opacity-50 grayscale"}`}>{p.icon}</span>
      <span className="min-w-0 flex-1">
        <span className={`block text-sm leading-tight font-semibold ${p.available ? "text-slate-900" : "text-slate-600"}`}>{p.title}</span>
        {/* slate-500 is 4.3:1 on the selected choice's indigo-50: slate-600 there (WCAG 1.4.3) */}
        <span className={`block text-xs ${p.selected ? "text-slate-600" : "text-slate-500"}`}>{p.detail}</span>
        {p.available ? null : (
          <span className="mt-0.5 block text-xs font-medium text-amber-800" data-testid="coin-unavailable">
            <span className="sr-only">, </span>
            {t("unavailable")}
          </span>
        )}
      </span>
      {p.trailing}
    </button>
  );
}
