/** The quotations resource: its menu icon and record label here, its screens in their own chunk. */
import RequestQuoteIcon from "@mui/icons-material/RequestQuote";
import { lazyScreens } from "../common/resourceRoutes";

export const quotations = {
  ...lazyScreens(() => import("./QuotationScreens"), ["list", "create", "edit", "show"]),
  icon: RequestQuoteIcon,
  recordRepresentation: (r: Record<string, unknown>) => `#${r.id ?? ""} — ${r.contact_name ?? ""}`,
};
