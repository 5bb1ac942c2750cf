/**
 * A list's rows lead to their record through a real link (Tab reaches it, Enter follows it, a Ctrl/middle
 * click opens it in another tab), while a click anywhere on the row still opens it, on a desktop and on a
 * phone; and on a 390 px phone every record's detail shows its fields one per line, none wider than the screen.
 */
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { es } from "../../src/admin/i18n/es";
import { SCREENS, screenPath } from "../../src/core/resources";
import { signIn } from "./fixtures";

// On a loaded machine two browsers and the server share little CPU: screens get longer to appear.
const expect = baseExpect.configure({ timeout: 30_000 });

const CLIENT_SHOW = /\/app\/clients\/show\/(\d+)$/;

/** The client's name as the API answers it. */
const clientName = (page: Page, id: string) =>
  page.evaluate(async (clientId) => (await (await fetch(`/api/v1/clients/${clientId}`)).json()).client.name as string, id);

/** What holds the keyboard focus: its tag, href, text and whether it sits in the table's first row. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const firstRow = document.querySelector("tbody tr");
    return {
      tag: el?.tagName.toLowerCase(),
      href: el?.getAttribute("href") ?? null,
      text: el?.textContent?.trim() ?? "",
      inFirstRow: Boolean(el && firstRow?.contains(el)),
      inTable: Boolean(el?.closest("tbody")),
    };
  });

test("a list's row is reached by Tab as a link to its record, Enter opens it, and a click on the row still does", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  await page.goto("/app/clients");
  const firstRow = page.locator("tbody tr").first();
  await expect(firstRow).toBeVisible();

  // From the search field, Tab goes through the toolbar and the headers to the first row's link.
  await page.getByPlaceholder(es.sia.clients.search).focus();
  let reached = await focused(page);
  for (let i = 0; i < 30 && !reached.inTable; i++) {
    await page.keyboard.press("Tab");
    reached = await focused(page);
  }
  expect(reached.inFirstRow, `focus went to ${JSON.stringify(reached)}`).toBe(true);
  expect(reached.tag).toBe("a");
  const id = reached.href?.match(CLIENT_SHOW)?.[1];
  expect(id, `href ${reached.href}`).toBeTruthy();
  // The link names the record: its text is the client's name.
  const name = await clientName(page, id as string);
  expect(reached.text).toBe(name);

  // Enter follows it, to the record's detail.
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(CLIENT_SHOW);
  expect(page.url()).toContain(`/app/clients/show/${id}`);
  await expect(page.locator(".ra-field-name")).toContainText(name);

  // Ctrl+click opens the record in another tab and leaves the list where it was.
  await page.goBack();
  await expect(firstRow).toBeVisible();
  const link = firstRow.getByRole("link", { name });
  await expect(link).toHaveAttribute("href", `/app/clients/show/${id}`);
  const [other] = await Promise.all([page.context().waitForEvent("page"), link.click({ modifiers: ["ControlOrMeta"] })]);
  await other.waitForLoadState();
  expect(other.url()).toContain(`/app/clients/show/${id}`);
  await other.close();
  await expect(page).toHaveURL(/\/app\/clients(\?.*)?$/);

  // A click elsewhere on the row still opens the record.
  await firstRow.locator("td").last().click();
  await expect(page).toHaveURL(new RegExp(`/app/clients/show/${id}$`));
});

test.describe("on a 390×844 phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("a list's card holds a link to its record, its lines labelled as the table's columns", async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, "admin");
    await page.goto("/app/clients");
    const card = page.getByTestId("phone-rows").locator("li").first();
    await expect(card).toBeVisible();
    // Its lines are labelled as the table's headers are (src/core/columns.ts), in Spanish.
    await expect(card).toContainText(es.resources.clients.fields.client_group_id);
    const link = card.locator("a[href^='/app/clients/show/']");
    await expect(link).toHaveCount(1);
    const href = (await link.getAttribute("href")) as string;
    await link.tap();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
  });

  test("every record's detail stacks its fields one per line, none wider than the screen", async ({ page }) => {
    test.setTimeout(300_000);
    await signIn(page, "admin");
    const withShow = SCREENS.filter((screen) => screen.paths.show?.length);
    const ids = await page.evaluate(
      async (resources) => {
        const found: Record<string, number> = {};
        for (const resource of resources)
          found[resource] = (await (await fetch(`/api/v1/${resource}?per_page=1`)).json())[resource][0].id;
        const invoice = (await (await fetch("/api/v1/invoices?per_page=1")).json()).invoices[0];
        return { found, invoice: `/app/projects/${invoice.project_id}/invoices/${invoice.id}` };
      },
      withShow.map((screen) => screen.resource as string),
    );
    const paths = [...withShow.map((screen) => screenPath(screen.resource, "show", ids.found[screen.resource])), ids.invoice];
    expect(paths.length).toBeGreaterThanOrEqual(10);
    const problems: string[] = [];
    for (const path of paths) {
      await page.goto(path);
      await expect(page.locator(".ra-field").first(), path).toBeVisible();
      // The record's own fields, not those of the tables inside it (a client's products).
      const boxes = await page.evaluate(() =>
        [...document.querySelectorAll(".ra-field")]
          .filter((el) => !el.parentElement?.closest(".ra-field"))
          .map((el) => {
            const box = el.getBoundingClientRect();
            return {
              field: el.className.match(/ra-field-(\S+)/)?.[1] ?? "?",
              x: box.x,
              y: box.y,
              width: box.width,
              height: box.height,
            };
          }),
      );
      if (boxes.length < 2) problems.push(`${path}: ${boxes.length} field(s)`);
      boxes.forEach((box, i) => {
        const before = boxes[i - 1];
        if (before && box.y < before.y + before.height - 1) problems.push(`${path}: ${box.field} beside ${before.field}`);
        if (box.x < 0 || box.x + box.width > 390) problems.push(`${path}: ${box.field} at ${box.x}+${box.width} px`);
      });
    }
    expect(problems, "fields beside another or wider than the screen").toEqual([]);
  });
});
