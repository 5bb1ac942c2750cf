/** The project_types resource: its menu icon and record label here, its screens in their own chunk. */
import CategoryIcon from "@mui/icons-material/Category";
import { lazyScreens } from "../common/resourceRoutes";

export const projectTypes = {
  ...lazyScreens(() => import("./ProjectTypeScreens"), ["list", "create", "edit"]),
  icon: CategoryIcon,
  recordRepresentation: "name",
};
