/** The app_settings resource: its menu icon and record label here, its screens in their own chunk. */
import SettingsIcon from "@mui/icons-material/Settings";
import { lazyScreens } from "../common/resourceRoutes";

export const appSettings = {
  ...lazyScreens(() => import("./AppSettingsScreens"), ["list", "edit"]),
  icon: SettingsIcon,
};
