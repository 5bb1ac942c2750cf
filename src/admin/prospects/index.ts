/** The prospects resource: its menu icon and record label here, its screens in their own chunk. */
import TravelExploreIcon from "@mui/icons-material/TravelExplore";
import { lazyScreens } from "../common/resourceRoutes";

export const prospects = {
  ...lazyScreens(() => import("./ProspectScreens"), ["list", "create", "edit", "show"]),
  icon: TravelExploreIcon,
  recordRepresentation: "name",
};
