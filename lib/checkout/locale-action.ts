"use server";

import { refresh } from "next/cache";
import { cookies } from "next/headers";
import { isLocale, LOCALE_COOKIE } from "@/domain/locales";
import { config } from "@/lib/config";

const YEAR_SECONDS = 365 * 24 * 3600;

/**
 * The language switcher's form: keeps the customer's choice in a cookie for a year, so the
 * checkout (and the next one) speaks it whatever the browser asks for. Anything but an offered
 * locale is ignored. The cookie holds no secret: it is readable by scripts like any preference,
 * SameSite=Lax, and Secure behind HTTPS.
 */
export async function setLocaleAction(form: FormData): Promise<void> {
  const locale = form.get("locale");
  if (!isLocale(locale)) return;
  const secure = config().publicBaseUrl.startsWith("https:");
  (await cookies()).set(LOCALE_COOKIE, locale, { path: "/", maxAge: YEAR_SECONDS, sameSite: "lax", secure });
  refresh();
}
