/**
 * The admin's i18nProvider: Spanish (Mexico) only. `allowMissing: false` keeps polyglot from
 * silently printing a key; a missing message shows up as its key (and a console warning).
 */
import polyglotI18nProvider from "ra-i18n-polyglot";
import { es } from "./es";

export type { SiaMessages } from "./es";
export { es, resources, sia } from "./es";
export { raSpanish } from "./ra-es";

export const i18nProvider = polyglotI18nProvider(() => es, "es", [{ locale: "es", name: "Español" }], {
  allowMissing: false,
});
