/**
 * The grid itself, an ARIA grid: a row per GridRow, a column per day, a cell an hours input. One cell is
 * in the tab order at a time (roving tabindex); Tab and Shift+Tab walk the cells row by row and leave the
 * grid at its ends, the arrow keys move in their direction (left and right once the caret is at the
 * text's edge), Enter saves. A frozen day's cells are read-only.
 */
import StarIcon from "@mui/icons-material/Star";
import StarBorderIcon from "@mui/icons-material/StarBorder";
import { Box, IconButton } from "@mui/material";
import { type KeyboardEvent, useRef, useState } from "react";
import { useTranslate } from "react-admin";
import type { Activity } from "../../core/activity";
import { formatCellMinutes } from "../../core/hoursInput";
import { cellId, cellLocked, cellMinutes, type GridRow } from "./model";

const DAY = new Intl.DateTimeFormat("es-MX", { weekday: "short", day: "2-digit", month: "2-digit", timeZone: "UTC" });
const dayLabel = (day: string) => DAY.format(new Date(`${day}T12:00:00Z`)).replace(",", "");

export interface DayTotal {
  day: string;
  text: string;
  /** Fewer hours than the day expects. */
  short: boolean;
  /** More than a working day. */
  over: boolean;
}

export function HoursGrid(props: {
  rows: readonly GridRow[];
  days: readonly string[];
  holidays: ReadonlySet<string>;
  frozenDays: ReadonlySet<string>;
  byCell: ReadonlyMap<string, Activity[]>;
  texts: Record<string, string>;
  invalid: Record<string, string>;
  serverErrors: Record<string, string[]>;
  totals: DayTotal[];
  weekTotal: string;
  /** The keys of the rows this person pinned. */
  pinned: ReadonlySet<string>;
  onChange(id: string, text: string): void;
  onSubmit(): void;
  onPin(row: GridRow): void;
}) {
  const { rows, days, byCell, texts } = props;
  const translate = useTranslate();
  const [active, setActive] = useState<[number, number]>([0, 0]);
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const [r0, c0] = [Math.min(active[0], Math.max(0, rows.length - 1)), active[1]];

  const focusCell = (r: number, c: number) => {
    const row = rows[r];
    if (!row) return false;
    const input = inputs.current.get(cellId(row.key, days[c]));
    if (!input) return false;
    setActive([r, c]);
    input.focus();
    input.select();
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, r: number, c: number) => {
    const input = event.currentTarget;
    const atStart = input.selectionStart === 0 && input.selectionEnd === 0;
    const atEnd = input.selectionStart === input.value.length;
    const whole = input.selectionStart === 0 && input.selectionEnd === input.value.length;
    const width = days.length;
    let target: [number, number] | null = null;
    if (event.key === "Tab") {
      const flat = r * width + c + (event.shiftKey ? -1 : 1);
      if (flat < 0 || flat >= rows.length * width) return; // leaves the grid
      target = [Math.floor(flat / width), flat % width];
    } else if (event.key === "ArrowUp") target = [r - 1, c];
    else if (event.key === "ArrowDown") target = [r + 1, c];
    else if (event.key === "ArrowLeft" && (atStart || whole)) target = [r, c - 1];
    else if (event.key === "ArrowRight" && (atEnd || whole)) target = [r, c + 1];
    else if (event.key === "Enter") {
      event.preventDefault();
      props.onSubmit();
      return;
    } else if (event.key === "*") {
      // Not an hours character: the cell's row is pinned or unpinned, as its star does.
      event.preventDefault();
      props.onPin(rows[r]);
      return;
    }
    if (!target) return;
    event.preventDefault();
    const [tr, tc] = target;
    if (tr >= 0 && tr < rows.length && tc >= 0 && tc < width) focusCell(tr, tc);
  };

  const cellSx = { border: 1, borderColor: "divider", p: 0.5, textAlign: "center" as const };
  return (
    <Box
      component="table"
      role="grid"
      aria-label={translate("sia.timesheet_grid.title")}
      data-testid="hours-grid"
      sx={{ borderCollapse: "collapse", width: "100%", minWidth: 720, "& input": { width: "4.5rem", textAlign: "right" } }}
    >
      <thead>
        <tr>
          <Box component="th" scope="col" role="columnheader" sx={{ ...cellSx, textAlign: "left" }}>
            {translate("sia.timesheet_grid.row")}
          </Box>
          {days.map((day) => (
            <Box
              component="th"
              scope="col"
              role="columnheader"
              key={day}
              sx={{ ...cellSx, bgcolor: props.holidays.has(day) ? "action.hover" : undefined }}
              data-date={day}
            >
              {dayLabel(day)}
              {props.frozenDays.has(day) && (
                <Box component="span" sx={{ display: "block", fontSize: "0.75rem", color: "text.secondary" }}>
                  {translate("sia.timesheet_grid.frozen_day")}
                </Box>
              )}
            </Box>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, r) => (
          <tr key={row.key}>
            <Box component="th" scope="row" role="rowheader" sx={{ ...cellSx, textAlign: "left", fontWeight: 500 }}>
              {/* Out of the tab order (Tab walks the cells): the key * in a cell of the row does the same. */}
              <IconButton
                size="small"
                tabIndex={-1}
                aria-keyshortcuts="*"
                aria-pressed={props.pinned.has(row.key)}
                aria-label={translate(props.pinned.has(row.key) ? "sia.timesheet_grid.unpin" : "sia.timesheet_grid.pin", {
                  row: row.label,
                })}
                onClick={() => props.onPin(row)}
                data-testid="grid-pin"
              >
                {props.pinned.has(row.key) ? <StarIcon fontSize="small" color="warning" /> : <StarBorderIcon fontSize="small" />}
              </IconButton>
              {row.label}
            </Box>
            {days.map((day, c) => {
              const id = cellId(row.key, day);
              const locked = cellLocked(byCell.get(id), day, props.frozenDays);
              const text = texts[id] ?? formatCellMinutes(cellMinutes(byCell.get(id)));
              const reasons = [...(props.invalid[id] ? [props.invalid[id]] : []), ...(props.serverErrors[id] ?? [])];
              const errorId = `grid-error-${r}-${c}`;
              return (
                <Box component="td" role="gridcell" key={day} sx={cellSx} aria-readonly={locked || undefined}>
                  <input
                    ref={(el) => {
                      if (el) inputs.current.set(id, el);
                      else inputs.current.delete(id);
                    }}
                    value={text}
                    readOnly={locked}
                    inputMode="decimal"
                    tabIndex={r === r0 && c === c0 ? 0 : -1}
                    aria-label={translate("sia.timesheet_grid.cell", { row: row.label, day: dayLabel(day) })}
                    aria-invalid={reasons.length > 0 || undefined}
                    aria-describedby={reasons.length ? errorId : undefined}
                    data-cell={`${r}-${c}`}
                    onFocus={(e) => {
                      setActive([r, c]);
                      e.currentTarget.select();
                    }}
                    onChange={(e) => props.onChange(id, e.target.value)}
                    onKeyDown={(e) => onKeyDown(e, r, c)}
                  />
                  {reasons.length > 0 && (
                    <Box id={errorId} role="alert" sx={{ color: "error.main", fontSize: "0.75rem", maxWidth: "9rem" }}>
                      {reasons.join(" ")}
                    </Box>
                  )}
                </Box>
              );
            })}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <Box component="th" scope="row" sx={{ ...cellSx, textAlign: "left" }} data-testid="grid-week-total">
            {translate("sia.timesheet_grid.total")}: {props.weekTotal}
          </Box>
          {props.totals.map((t) => (
            <Box
              component="td"
              key={t.day}
              sx={{
                ...cellSx,
                color: t.over ? "error.dark" : t.short ? "warning.dark" : "text.primary",
                fontWeight: t.over ? 700 : undefined,
                fontSize: "0.8rem",
              }}
              data-state={t.over ? "over" : t.short ? "short" : "full"}
              data-testid={`grid-day-total-${t.day}`}
            >
              {t.text}
            </Box>
          ))}
        </tr>
      </tfoot>
    </Box>
  );
}
