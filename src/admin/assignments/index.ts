/** The assignments resource: its menu icon and record label here, its screens in their own chunk. */
import AssignmentIndIcon from "@mui/icons-material/AssignmentInd";
import { lazyScreens } from "../common/resourceRoutes";

export const assignments = {
  ...lazyScreens(() => import("./AssignmentScreens"), ["list", "create", "edit", "show"]),
  icon: AssignmentIndIcon,
  recordRepresentation: (r: Record<string, unknown>) => `${r.employee_name ?? ""} — ${r.client_name ?? ""}`,
};
