import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { DEFAULT_LOCALE } from "@/domain/locales";
import { checkoutLocale, messagesOf } from "@/lib/checkout/locale";
import { CHECKOUT_PAGE_HEADER } from "@/lib/http/page-guard";

/**
 * next-intl's per-request configuration. Only the checkout is translated, in the customer's
 * language (lib/checkout/locale.ts); every other page is English (the proxy marks checkout
 * requests, lib/http/page-guard.ts).
 */
export default getRequestConfig(async () => {
  const locale = (await headers()).get(CHECKOUT_PAGE_HEADER) ? await checkoutLocale() : DEFAULT_LOCALE;
  return {
    locale,
    messages: await messagesOf(locale),
    // Times are shown in UTC with the zone named, so the server-rendered text is the same for every visitor.
    timeZone: "UTC",
  };
});
