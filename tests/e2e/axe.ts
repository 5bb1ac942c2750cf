/** axe-core (WCAG 2.1 A and AA) on the page, shared by the accessibility walk and the phone's crawl. */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** One line per serious or critical violation: where, the rule, and the elements it hit. */
export async function audit(page: Page, where: string, include?: string): Promise<string[]> {
  // Legacy mode runs axe in the page itself: the default mode opens a blank page of its own for the last step,
  // which this shared, signed-in page's context refuses.
  // A toast fading in or out is measured at part opacity, as a contrast failure: wait until every toast
  // shown is whole (or gone). One that never settles is audited as it is.
  await page
    .waitForFunction(
      () => [...document.querySelectorAll(".MuiSnackbarContent-root")].every((el) => getComputedStyle(el).opacity === "1"),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  let builder = new AxeBuilder({ page }).withTags(TAGS).setLegacyMode(true);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where}: ${v.id} (${v.impact}) → ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}
