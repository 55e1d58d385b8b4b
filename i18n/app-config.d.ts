import type { Locale } from "@/domain/locales";
import type messages from "../messages/en.json";

// next-intl checks every message key and argument against the English catalogue at compile time.
declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof messages;
  }
}
