import Link from "next/link";
import { useTranslations } from "next-intl";

/** Unknown or malformed payment id: a friendly 404 (the status code is 404), in the customer's language. */
export default function PaymentNotFound() {
  const t = useTranslations("checkout.notFound");
  return (
    <main className="px-4 py-12 sm:py-20">
      <div className="mx-auto w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
        <span aria-hidden="true" className="mx-auto inline-flex size-14 items-center justify-center rounded-full bg-slate-100 text-2xl font-bold text-slate-500">
          ?
        </span>
        <h1 className="mt-4 text-xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="mt-2 text-sm text-slate-600">{t("body")}</p>
        <p className="mt-4 text-sm text-slate-600">
          {t.rich("warning", { strong: (chunks) => <strong className="font-semibold text-slate-800">{chunks}</strong> })}
        </p>
        <Link
          href="/"
          className="mt-6 inline-flex min-h-10 items-center rounded-lg bg-slate-900 px-4 text-sm font-semibold text-white hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {t("home")}
        </Link>
      </div>
    </main>
  );
}
