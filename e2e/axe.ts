import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

/** The WCAG 2.1 A and AA rules of axe-core: what "accessible" means for the service's pages. */
export const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** The impacts that fail an audit; minor and moderate findings are reported, not failed. */
const BLOCKING = new Set(["serious", "critical"]);

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

/** One violation in a few lines: the rule, its impact and help, and where it occurs. */
function describe(v: Violation): string {
  const nodes = v.nodes.slice(0, 10).map((n) => {
    const summary = n.failureSummary?.split("\n").slice(1, 3).join(" ").trim();
    return `    - ${n.target.map(String).join(" > ")}${summary ? `\n      ${summary}` : ""}`;
  });
  const more = v.nodes.length > 10 ? [`    … and ${v.nodes.length - 10} more`] : [];
  return [`  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`, ...nodes, ...more].join("\n");
}

/**
 * Audits the page as it is now with axe-core (WCAG 2.1 A + AA) and fails on any serious or
 * critical violation, naming the rule, its help and the target selectors. The full results go
 * into the test's attachments (`axe-<name>.json`) either way.
 */
export async function expectAccessible(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  await test.info().attach(`axe-${name}.json`, {
    body: JSON.stringify({ url: page.url(), violations: results.violations, incomplete: results.incomplete }, null, 2),
    contentType: "application/json",
  });
  const blocking = results.violations.filter((v) => BLOCKING.has(v.impact ?? ""));
  const message =
    blocking.length === 0
      ? ""
      : `${name} (${page.url()}): ${blocking.length} serious or critical axe violation(s):\n${blocking.map(describe).join("\n")}`;
  expect(blocking.length, message).toBe(0);
}
