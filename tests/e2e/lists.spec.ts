/**
 * Lists and their remembered params: every column a list offers to sort by sorts, and a sort, filter or
 * page size the server refuses (kept by react-admin in localStorage from an older version, another tab or
 * a hand-edited address) is dropped by the list itself, which shows its rows and says so once.
 */
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { es } from "../../src/admin/i18n/es";
import { createProject, signIn } from "./fixtures";

// On a loaded machine two browsers and the server share little CPU: screens get longer to appear.
const expect = baseExpect.configure({ timeout: 30_000 });

const DROPPED = es.sia.lists.params_dropped;
const STORE_KEY = "RaStore.clients.listParams";

/** Sorts by a column header as a person would, and answers the list's answer to that sort. */
async function sortBy(page: Page, header: string, column: string) {
  const answer = page.waitForResponse(
    (res) => res.url().includes("by_column%5Bcolumn%5D=") && res.url().includes(`by_column%5Bcolumn%5D=${column}&`),
  );
  await page.getByRole("columnheader", { name: header }).click();
  return answer;
}

test("every offered sort works, and a refused stored sort, filter or page size is dropped and told once", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, "admin");

  // «Listo para producción» sorts (it used to answer 422 and leave a headerless, empty list behind).
  await page.goto("/app/clients");
  await expect(page.getByRole("columnheader", { name: "Nombre" })).toBeVisible();
  const sorted = await sortBy(page, "Listo para producción", "is_production_ready");
  expect(sorted.status()).toBe(200);
  await expect(page.getByRole("columnheader", { name: "Listo para producción" })).toBeVisible();
  await expect(page.locator("tbody tr").first()).toBeVisible();

  // What an older version or a hand-edited address leaves in the store: each refused, each recovered.
  const refused = [
    { sort: "columna_retirada", order: "ASC", page: 1, perPage: 10, filter: {} },
    { sort: "name", order: "ASC", page: 1, perPage: 10, filter: { by_client_group: "ninguno" } },
    { sort: "name", order: "ASC", page: 1, perPage: 5000, filter: {} },
  ];
  for (const stored of refused) {
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [STORE_KEY, JSON.stringify(stored)] as const);
    // Through the menu, as a person comes back to the list.
    await page.goto("/app/activities");
    await page.getByRole("menuitem", { name: "Clientes", exact: true }).click();
    await expect(page.getByText(DROPPED)).toHaveCount(1);
    await expect(page.getByRole("columnheader", { name: "Nombre" })).toBeVisible();
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await expect(page.getByText("No se encontraron")).toHaveCount(0);
    // The store holds the defaults again: a reload and a new tab show the list, with nothing to tell.
    await expect.poll(() => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "{}").sort, STORE_KEY)).toBe("name");
    await page.goto("/app/clients");
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await expect(page.getByText(DROPPED)).toHaveCount(0);
  }
  const other = await page.context().newPage();
  await other.goto("/app/clients");
  await expect(other.locator("tbody tr").first()).toBeVisible();
  await expect(other.getByText(DROPPED)).toHaveCount(0);
  await other.close();

  // An address with a refused sort recovers the same way.
  await page.goto(`/app/clients?sort=otra_columna&order=DESC&page=1&perPage=10&filter=${encodeURIComponent("{}")}`);
  await expect(page.getByText(DROPPED)).toHaveCount(1);
  await expect(page.locator("tbody tr").first()).toBeVisible();

  // A project's invoices sort by «Comentario».
  const project = await createProject(page, `Orden de facturas ${Date.now().toString(36)}`);
  await page.evaluate(async (projectId) => {
    for (const [percentage_value, audit_comment] of [
      [10, "Beta"],
      [20, "Alfa"],
    ]) {
      await fetch("/api/v1/invoices", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ invoice: { project_id: projectId, percentage_value, audit_comment } }),
      });
    }
  }, project.id);
  await page.goto(`/app/projects/${project.id}/invoices`);
  await expect(page.getByRole("cell", { name: "Beta" })).toBeVisible();
  const byComment = await sortBy(page, "Comentario", "audit_comment");
  expect(byComment.status()).toBe(200);
  await expect(page.locator("tbody tr").first()).toContainText("Alfa");
  const descending = await sortBy(page, "Comentario", "audit_comment");
  expect(descending.status()).toBe(200);
  await expect(page.locator("tbody tr").first()).toContainText("Beta");
});
