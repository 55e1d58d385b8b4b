import { deliverWebhook } from "./deliver-webhook";
import { expirePayment } from "./expire-payment";
import { followChains } from "./follow-chains";
import { refreshRatesFunction } from "./refresh-rates";
import { sweep } from "./sweep";

/** Every function `app/api/inngest` serves. */
export const functions = [expirePayment, deliverWebhook, sweep, followChains, refreshRatesFunction];
