/**
 * A week under review, read-only: the timesheet's calendar (the firm's time zone, Monday first) without
 * creating, moving or resizing; on a phone, the activities listed day by day instead.
 */
import esLocale from "@fullcalendar/core/locales/es";
import FullCalendar from "@fullcalendar/react";
import timeGridPlugin from "@fullcalendar/timegrid";
import { List, ListItem, ListItemText, ListSubheader } from "@mui/material";
import { useMemo } from "react";
import { ACTION_LABELS, type ActionType } from "../../core/constants";
import { dayName } from "../../core/messages";
import { BUSINESS_TIME_ZONE, localDateOf, wallClockIn } from "../../core/week";
import type { WeekReviewDetail } from "../../dataProvider";
import { businessTimeZonePlugin } from "../../timesheet/components/businessTimeZone";

const PLUGINS = [timeGridPlugin, businessTimeZonePlugin];
const TIME_FORMAT = { hour: "2-digit", minute: "2-digit", hour12: false } as const;
const NO_TOOLBAR = { left: "", center: "", right: "" };

type Activity = WeekReviewDetail["activities"][number];

const titleOf = (a: Activity) =>
  [ACTION_LABELS[a.action_type as ActionType] ?? a.action_type, a.project_name ?? a.client_name, a.description]
    .filter(Boolean)
    .join(" · ");
const clock = (iso: string) => {
  const minutes = wallClockIn(new Date(iso), BUSINESS_TIME_ZONE).minutes;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
};

export default function ReviewCalendar(props: { weekStart: string; activities: Activity[]; phone: boolean }) {
  const { weekStart, activities, phone } = props;
  const events = useMemo(
    () => activities.map((a) => ({ id: String(a.id), start: a.begins_at, end: a.ends_at, title: titleOf(a) })),
    [activities],
  );
  if (phone) {
    const dayOf = (a: Activity) => localDateOf(a.begins_at) ?? a.begins_at.slice(0, 10);
    const days = [...new Set(activities.map(dayOf))];
    return (
      <List dense data-testid="review-week-list">
        {days.map((day) => (
          <li key={day}>
            <ul style={{ padding: 0 }}>
              <ListSubheader>{dayName(day)}</ListSubheader>
              {activities
                .filter((a) => dayOf(a) === day)
                .map((a) => (
                  <ListItem key={a.id}>
                    <ListItemText primary={`${clock(a.begins_at)}–${clock(a.ends_at)}`} secondary={titleOf(a)} />
                  </ListItem>
                ))}
            </ul>
          </li>
        ))}
      </List>
    );
  }
  return (
    <div data-testid="review-week-calendar">
      <FullCalendar
        plugins={PLUGINS}
        initialView="timeGridWeek"
        initialDate={weekStart}
        locale={esLocale}
        timeZone={BUSINESS_TIME_ZONE}
        firstDay={1}
        height="70vh"
        scrollTime="08:00:00"
        eventTimeFormat={TIME_FORMAT}
        slotLabelFormat={TIME_FORMAT}
        allDaySlot={false}
        headerToolbar={NO_TOOLBAR}
        events={events}
        editable={false}
        selectable={false}
      />
    </div>
  );
}
