import { cookies, headers } from "next/headers";
import { createTranslator, type Messages } from "next-intl";
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale } from "@/domain/locales";
import { negotiateLocale } from "@/lib/http/accept-language";

/**
 * The customer's language on the checkout: their choice from the switcher (its cookie), else the
 * best match for the browser's Accept-Language, else English. Outside a request (a script or a
 * test calling a server action directly) there is no customer to ask, and it is English.
 */
export async function checkoutLocale(): Promise<Locale> {
  let h: Awaited<ReturnType<typeof headers>>;
  try {
    h = await headers();
  } catch {
    return DEFAULT_LOCALE;
  }
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  return isLocale(chosen) ? chosen : negotiateLocale(h.get("accept-language"));
}

/** A locale's messages (messages/<locale>.json). */
export async function messagesOf(locale: Locale): Promise<Messages> {
  return (await import(`../../messages/${locale}.json`)).default as Messages;
}

/** The checkout's error messages in the customer's language, for the server actions' answers. */
export async function checkoutErrors() {
  const locale = await checkoutLocale();
  return createTranslator({ locale, messages: await messagesOf(locale), namespace: "checkout.errors" });
}
