/**
 * The activity's common fields — day, start, end, action type, description — with the per-type fields
 * between them, and, for a new activity, the favourites and recent activities it may start from.
 */
import { Box, MenuItem, Stack, TextField } from "@mui/material";
import { useTranslate } from "react-admin";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { SiaDatePicker } from "../../../admin/common/DatePickerInput";
import type { Activity } from "../../../core/activity";
import { ACTION_LABELS, ACTION_TYPES, VACATION_DESCRIPTION } from "../../../core/constants";
import { hhmm, localDate, zonedTime } from "../../../core/week";
import { fieldKey } from "./labels";
import { TimeText } from "./TimeText";
import { type PickedLabels, TypeFields } from "./TypeFields";
import type { ActivityFormValues, AppSettingsLite } from "./types";
import { useStarters } from "./useChoices";

const toMinutes = (t: string) => {
  const [h, m] = t.split(":").map(Number);
  return h * 60 + m;
};

export function ActivityForm(props: {
  /** A new activity: offers the favourites and recent activities to start from. */
  creating: boolean;
  disabled: boolean;
  employeeId: number | null;
  settings: AppSettingsLite;
  labels: PickedLabels;
  onLabels(change: Partial<PickedLabels>): void;
  /** A starter was chosen: the form takes its fields (the times stay). */
  onStart(activity: Activity): void;
  /** False for a grid's row: no day and times (the grid places the hours). */
  withTimes?: boolean;
}) {
  const { disabled } = props;
  const translate = useTranslate();
  const { control, setValue, formState } = useFormContext<ActivityFormValues>();
  const [actionType, beginsAt, endsAt] = useWatch({ control, name: ["action_type", "begins_at", "ends_at"] });
  const starters = useStarters(props.employeeId, props.creating && !disabled);
  const err = (name: keyof ActivityFormValues) => formState.errors[name]?.message as string | undefined;
  const label = (field: string) => translate(fieldKey(field));

  const day = beginsAt ? localDate(new Date(beginsAt)) : "";
  const startText = beginsAt ? hhmm(new Date(beginsAt)) : "";
  const endText = endsAt ? hhmm(new Date(endsAt)) : "";
  const setTimes = (date: string, start: string, end: string) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(start) || !/^\d{2}:\d{2}$/.test(end)) return;
    setValue("begins_at", zonedTime(date, toMinutes(start)).toISOString(), { shouldDirty: true });
    // 00:00 as an end is the day's midnight.
    const endMinutes = toMinutes(end) === 0 ? 24 * 60 : toMinutes(end);
    setValue("ends_at", zonedTime(date, endMinutes).toISOString(), { shouldDirty: true });
  };

  return (
    <>
      {starters.length > 0 && (
        <TextField
          select
          size="small"
          label={translate("sia.activity_form.starters")}
          value=""
          onChange={(e) => {
            const a = starters.find((s) => String(s.id) === e.target.value);
            if (a) props.onStart(a);
          }}
        >
          {starters.map((s) => (
            <MenuItem key={s.id} value={String(s.id)}>
              {s.is_favorite ? "★ " : ""}
              {ACTION_LABELS[s.action_type as keyof typeof ACTION_LABELS] ?? s.action_type}: {s.description}
            </MenuItem>
          ))}
        </TextField>
      )}
      {/* The day needs room for its whole dd/mm/yyyy beside the picker's icon; on a phone the three stack. */}
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ display: props.withTimes === false ? "none" : "flex" }}>
        <Box sx={{ flex: "2 1 0", minWidth: "11.5rem" }} data-testid="activity-day">
          <SiaDatePicker
            label={label("day")}
            value={day}
            disabled={disabled}
            onChange={(date) => date && setTimes(date, startText, endText)}
            fullWidth
          />
        </Box>
        <TimeText
          label={label("begins_at")}
          value={startText}
          disabled={disabled}
          onChange={(time) => setTimes(day, time, endText)}
          error={err("begins_at")}
        />
        <TimeText
          label={label("ends_at")}
          value={endText}
          disabled={disabled}
          onChange={(time) => setTimes(day, startText, time)}
          error={err("ends_at")}
        />
      </Stack>
      <Controller
        control={control}
        name="action_type"
        render={({ field }) => (
          <TextField
            {...field}
            select
            size="small"
            label={label("action_type")}
            disabled={disabled}
            error={!!err("action_type")}
            helperText={err("action_type")}
          >
            {ACTION_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {ACTION_LABELS[t]}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <TypeFields disabled={disabled} settings={props.settings} labels={props.labels} onLabels={props.onLabels} />
      <Controller
        control={control}
        name="description"
        render={({ field }) => (
          <TextField
            {...field}
            value={actionType === "vacation" ? VACATION_DESCRIPTION : field.value}
            label={label("description")}
            multiline
            minRows={2}
            disabled={disabled || actionType === "vacation"}
            error={!!err("description")}
            helperText={err("description")}
          />
        )}
      />
    </>
  );
}
