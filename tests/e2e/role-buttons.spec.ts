/**
 * Every list a role opens offers exactly what the permission matrix grants it (src/core/permissions.ts):
 * «Crear» with `create`, the CSV with `export`. A button the server would refuse is not shown.
 */
import { expect, test } from "@playwright/test";
import { type Action, canAccess, type RoleHolder } from "../../src/core/permissions";
import { SCREENS, screenPath } from "../../src/core/resources";
import { type ACCOUNTS, signIn } from "./fixtures";

const ROLES: Record<keyof typeof ACCOUNTS, RoleHolder> = {
  admin: { administrator_role: true },
  operator: { operator_role: true },
  finance: { finance_role: true },
};
/** The lists that offer their CSV (the button's label on each). */
const CSV_LABEL: Record<string, string> = { clients: "Exportar CSV", projects: "Descargar CSV" };

for (const role of ["operator", "finance", "admin"] as const) {
  test(`${role}: each list shows create and CSV only with the grant`, async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, role);
    const may = (resource: string, action: Action) => canAccess({ user: ROLES[role], resource, action });
    for (const screen of SCREENS) {
      if (!screen.paths.list || !may(screen.resource, "list")) continue;
      await page.goto(screenPath(screen.resource, "list"));
      const main = page.locator("#main-content");
      // The list has loaded (rows, or the empty page).
      await expect(
        main
          .getByRole("row")
          .nth(1)
          .or(main.getByRole("heading", { name: /^Aún no hay/ }))
          .first(),
      ).toBeVisible();
      await expect(main.getByRole("link", { name: "Crear", exact: true }), `${screen.resource} crear`).toHaveCount(
        may(screen.resource, "create") ? 1 : 0,
      );
      const csv = CSV_LABEL[screen.resource];
      if (csv) {
        await expect(main.getByRole("button", { name: csv }), `${screen.resource} CSV`).toHaveCount(
          may(screen.resource, "export") ? 1 : 0,
        );
      }
    }
  });
}
