/** The clients resource: its menu icon and record label here, its screens in their own chunk. */
import BusinessIcon from "@mui/icons-material/Business";
import { lazyScreens } from "../common/resourceRoutes";

export const clients = {
  ...lazyScreens(() => import("./ClientScreens"), ["list", "create", "edit", "show"]),
  icon: BusinessIcon,
  recordRepresentation: "name",
};
