/** The users resource: its menu icon and record label here, its screens in their own chunk. */
import ManageAccountsIcon from "@mui/icons-material/ManageAccounts";
import { lazyScreens } from "../common/resourceRoutes";

export const users = {
  ...lazyScreens(() => import("./UserScreens"), ["list", "create", "edit", "show"]),
  icon: ManageAccountsIcon,
  recordRepresentation: "name",
};
