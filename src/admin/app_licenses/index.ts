/** The app_licenses resource: its menu icon and record label here, its screens in their own chunk. */
import KeyIcon from "@mui/icons-material/Key";
import { lazyScreens } from "../common/resourceRoutes";

export const appLicenses = {
  ...lazyScreens(() => import("./AppLicenseScreens"), ["list", "create", "edit", "show"]),
  icon: KeyIcon,
  recordRepresentation: "entity_name",
};
