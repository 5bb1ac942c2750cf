/**
 * Catalogue keys of the licence values (SPEC §3, §9): react-admin translates choice names; the stored
 * values stay as the API spells them.
 */
import { LICENSE_ENVIRONMENTS, LICENSE_MODULES, LICENSE_TYPES } from "../../core/constants";

export const licenseTypeChoices = LICENSE_TYPES.map((id) => ({ id, name: `sia.app_licenses.types.${id}` }));
export const licenseModuleChoices = LICENSE_MODULES.map((id) => ({ id, name: moduleLabel(id) }));
export const environmentChoices = LICENSE_ENVIRONMENTS.map((id) => ({ id, name: `sia.app_licenses.environments.${id}` }));
export const statusChoices = [
  { id: "active", name: "sia.app_licenses.status.active" },
  { id: "inactive", name: "sia.app_licenses.status.inactive" },
];
/** The module's catalogue key; an unknown module (an older value) shows as stored. */
export function moduleLabel(id: string) {
  return (LICENSE_MODULES as readonly string[]).includes(id) ? `sia.app_licenses.modules.${id}` : id;
}
