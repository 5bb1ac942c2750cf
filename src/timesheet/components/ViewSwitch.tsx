/**
 * «Calendario | Cuadrícula»: the two views of the same week. The choice is remembered per signed-in person
 * (this browser), and /app/activities opens the remembered one.
 */
import { ToggleButton, ToggleButtonGroup } from "@mui/material";
import { useEffect } from "react";
import { usePermissions, useTranslate } from "react-admin";
import { useLocation, useNavigate } from "react-router-dom";
import { PAGE_PATHS } from "../../core/resources";
import type { SessionUser } from "../../core/session";
import { browserStorage } from "../model/storage";
import { WEEK_PARAM } from "../model/who";

export type TimesheetView = "calendar" | "grid";
export const GRID_PATH = `${PAGE_PATHS.activities}/grid`;
// Whole paths: the router is not based at /app (react-admin only prefixes its own links).
const ROUTES: Record<TimesheetView, string> = { calendar: PAGE_PATHS.activities, grid: GRID_PATH };

const storageKey = (userId: unknown) => `sia:timesheet-view:${String(userId)}`;

export function rememberedView(userId: unknown): TimesheetView {
  try {
    return browserStorage()?.getItem(storageKey(userId)) === "grid" ? "grid" : "calendar";
  } catch {
    return "calendar";
  }
}

function remember(userId: unknown, view: TimesheetView) {
  try {
    browserStorage()?.setItem(storageKey(userId), view);
  } catch {
    // A browser that refuses storage still switches; it only forgets.
  }
}

/** The switch; `weekStart` (the week shown) goes along, so the other view opens on the same week. */
export function ViewSwitch({ view, weekStart }: { view: TimesheetView; weekStart: string | null }) {
  const { permissions } = usePermissions<SessionUser | null>();
  const translate = useTranslate();
  const navigate = useNavigate();
  const { search } = useLocation();
  const userId = permissions?.id;
  // The calendar's address opens the view this person chose last time.
  useEffect(() => {
    if (view === "calendar" && userId !== undefined && rememberedView(userId) === "grid")
      navigate(`${ROUTES.grid}${search}`, { replace: true });
  }, [view, userId, navigate, search]);
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={view}
      aria-label={translate("sia.timesheet_grid.view")}
      onChange={(_event, next: TimesheetView | null) => {
        if (!next || next === view) return;
        remember(userId, next);
        navigate(weekStart ? `${ROUTES[next]}?${WEEK_PARAM}=${weekStart}` : ROUTES[next]);
      }}
    >
      <ToggleButton value="calendar">{translate("sia.timesheet_grid.calendar")}</ToggleButton>
      <ToggleButton value="grid">{translate("sia.timesheet_grid.grid")}</ToggleButton>
    </ToggleButtonGroup>
  );
}
