import { useLocale, useTranslations } from "next-intl";
import { LOCALE_NAMES, LOCALES } from "@/domain/locales";
import { setLocaleAction } from "@/lib/checkout/locale-action";

/**
 * The checkout's language, chosen by the customer: a plain form, so it works without
 * JavaScript, submitted by its button (changing a select does not move the page under the
 * customer, WCAG 3.2.2). Each language is listed by its own name and marked with its `lang`.
 */
export function LanguageSwitcher() {
  const t = useTranslations("checkout.language");
  const locale = useLocale();
  return (
    <form action={setLocaleAction} className="flex items-center justify-center gap-2 text-xs text-slate-600" data-testid="language-switcher">
      <label htmlFor="checkout-locale">{t("label")}</label>
      <select
        id="checkout-locale"
        name="locale"
        defaultValue={locale}
        className="min-h-8 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-900 focus:outline-2 focus:outline-offset-1 focus:outline-indigo-600"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="min-h-8 rounded-md bg-white px-2.5 font-semibold text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {t("change")}
      </button>
    </form>
  );
}
