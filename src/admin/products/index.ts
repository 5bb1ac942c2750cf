/** The products resource: its menu icon and record label here, its screens in their own chunk. */
import Inventory2Icon from "@mui/icons-material/Inventory2";
import { lazyScreens } from "../common/resourceRoutes";

export const products = {
  ...lazyScreens(() => import("./ProductScreens"), ["list", "create", "edit", "show"]),
  icon: Inventory2Icon,
  recordRepresentation: "name",
};
