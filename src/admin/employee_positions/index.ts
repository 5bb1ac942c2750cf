/** The employee_positions resource: its menu icon and record label here, its screens in their own chunk. */
import WorkIcon from "@mui/icons-material/Work";
import { lazyScreens } from "../common/resourceRoutes";

export const employeePositions = {
  ...lazyScreens(() => import("./EmployeePositionScreens"), ["list", "create", "edit"]),
  icon: WorkIcon,
  recordRepresentation: "name",
};
