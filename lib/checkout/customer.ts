import type { Db } from "@/db/client";
import { addCustomerIp, findCustomerIdByEmail, updateCustomerEmail } from "@/db/queries/customers";
import { claimFirstVisit, setPaymentCustomer } from "@/db/queries/payments-write";
import { ipLocationColumns } from "@/lib/geo/ip-location";
import { emailField } from "@/lib/http/email-field";
import { badRequest, conflict, notFound } from "@/lib/http/errors";
import { loadForUpdate } from "@/lib/payments/lock";
import { inTransaction } from "@/db/transaction";
import { DEFAULT_LOCALE, type Locale } from "@/domain/locales";

/**
 * D9: the first checkout visit records the customer's IP and user agent when the merchant did
 * not give them at create, with where the IP is (city, country; lib/geo). The conditional UPDATE
 * makes it "first visit only" under concurrency.
 */
export async function recordVisit(db: Db, paymentId: string, ip: string | null, userAgent: string | null): Promise<void> {
  if (!ip) return;
  // Looked up before the transaction: the first lookup opens the database file (lib/geo).
  const location = await ipLocationColumns(ip);
  await inTransaction(db, async (tx) => {
    const claimed = await claimFirstVisit(tx, paymentId, ip, userAgent);
    if (claimed) await addCustomerIp(tx, { customerId: claimed.customerId, ip, userAgent, ...location, createdAt: new Date() });
  });
}

/**
 * D9: an email typed on checkout is stored on the customer. When the business already has a
 * customer with that email, the payment joins that customer instead. The address follows the
 * API's rules (`emailField`), whoever calls. `locale` is the checkout's language, which the
 * customer's e-mails are then written in (lib/emails).
 */
export async function setCustomerEmail(db: Db, paymentId: string, email: string, locale: Locale = DEFAULT_LOCALE): Promise<void> {
  const valid = emailField.safeParse(email);
  if (!valid.success) {
    const why = valid.error.issues.map((i) => i.message);
    throw badRequest(`That email address cannot be used: ${why.join("; ")}.`, { email: why });
  }
  await inTransaction(db, async (tx) => {
    const { payment, business } = await loadForUpdate(tx, paymentId);
    if (payment.customerEmail) throw conflict("This payment already has a customer email.");
    const existing = await findCustomerIdByEmail(tx, business.id, email);
    let customerId = payment.customerId;
    if (existing !== undefined) customerId = existing;
    else if (!(await updateCustomerEmail(tx, payment.customerId, email))) {
      throw notFound("The payment's customer no longer exists.");
    }
    await setPaymentCustomer(tx, paymentId, customerId, email, new Date(), locale);
  });
}
