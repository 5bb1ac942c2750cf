/** The employees resource: its menu icon and record label here, its screens in their own chunk. */
import BadgeIcon from "@mui/icons-material/Badge";
import { lazyScreens } from "../common/resourceRoutes";

export const employees = {
  ...lazyScreens(() => import("./EmployeeScreens"), ["list", "create", "edit", "show"]),
  icon: BadgeIcon,
  recordRepresentation: "name",
};
