/** The client_groups resource: its menu icon and record label here, its screens in their own chunk. */
import GroupWorkIcon from "@mui/icons-material/GroupWork";
import { lazyScreens } from "../common/resourceRoutes";

export const clientGroups = {
  ...lazyScreens(() => import("./ClientGroupScreens"), ["list", "create", "edit", "show"]),
  icon: GroupWorkIcon,
  recordRepresentation: "name",
};
