/** The workspaces resource: its menu icon and record label here, its screens in their own chunk. */
import WorkspacesIcon from "@mui/icons-material/Workspaces";
import { lazyScreens } from "../common/resourceRoutes";

export const workspaces = {
  ...lazyScreens(() => import("./WorkspaceScreens"), ["list", "create", "edit", "show"]),
  icon: WorkspacesIcon,
  recordRepresentation: "name",
};
