/** The activity_type_catalogs resource: its menu icon and record label here, its screens in their own chunk. */
import LabelIcon from "@mui/icons-material/Label";
import { lazyScreens } from "../common/resourceRoutes";

export const activityTypeCatalogs = {
  ...lazyScreens(() => import("./ActivityTypeScreens"), ["list", "create", "edit"]),
  icon: LabelIcon,
  recordRepresentation: "name",
};
