/** The projects resource: its menu icon and record label here, its screens in their own chunk. */
import WorkIcon from "@mui/icons-material/Work";
import { lazyScreens } from "../common/resourceRoutes";

export const projects = {
  ...lazyScreens(() => import("./ProjectScreens"), ["list", "create", "edit", "show"]),
  icon: WorkIcon,
  recordRepresentation: (r: Record<string, unknown>) => `${r.project_code ?? ""} — ${r.name ?? ""}`,
};
