/** The week's hours: the total and the hours by action type, coloured like the calendar. */
import { Box, Chip, Stack } from "@mui/material";
import { memo } from "react";
import { useTranslate } from "react-admin";
import { ACTION_LABELS, ACTION_TYPES } from "../../core/constants";
import { ACTION_COLORS, ACTION_TEXT_COLORS } from "../model/colors";
import { formatHours, hoursByType, type Timed, totalHours } from "../model/totals";

export const SummaryBar = memo(function SummaryBar({ activities }: { activities: ReadonlyArray<Timed> }) {
  const byType = hoursByType(activities);
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", alignItems: "center", rowGap: 1 }} data-testid="week-summary">
      <Box sx={{ fontWeight: 600 }} data-testid="week-total">
        {translate("sia.timesheet.week_total", { hours: formatHours(totalHours(activities)) })}
      </Box>
      {ACTION_TYPES.filter((t) => byType[t] > 0).map((t) => (
        <Chip
          key={t}
          size="small"
          label={`${ACTION_LABELS[t]}: ${formatHours(byType[t])}`}
          sx={{ backgroundColor: ACTION_COLORS[t], color: ACTION_TEXT_COLORS[t] ?? "#fff" }}
        />
      ))}
    </Stack>
  );
});
