/** The holydays resource: its menu icon and record label here, its screens in their own chunk. */
import EventBusyIcon from "@mui/icons-material/EventBusy";
import { lazyScreens } from "../common/resourceRoutes";

export const holydays = {
  ...lazyScreens(() => import("./HolidayScreens"), ["list", "create"]),
  icon: EventBusyIcon,
  recordRepresentation: "date",
};
