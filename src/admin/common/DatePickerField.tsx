/**
 * The MUI X date picker behind SiaDatePicker (src/admin/common/DatePickerInput.tsx), in its own module so
 * the picker library loads only when a screen shows a date field (code splitting).
 */
import { AdapterDateFns } from "@mui/x-date-pickers/AdapterDateFns";
import { DatePicker } from "@mui/x-date-pickers/DatePicker";
import { DateTimePicker } from "@mui/x-date-pickers/DateTimePicker";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { esES } from "@mui/x-date-pickers/locales";
import { es } from "date-fns/locale";
import type { ReactNode } from "react";
import { pickerTexts } from "../i18n/es";
import { type SiaDatePickerProps, type SiaDateTimePickerProps, toDate, toIso } from "./dateValues";

/** The library's Spanish, with the accents it lacks («Dia») and our words where its own read oddly. */
const localeText = { ...esES.components.MuiLocalizationProvider.defaultProps.localeText, ...pickerTexts };

export function DatesProvider({ children }: { children: ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={es} localeText={localeText}>
      {children}
    </LocalizationProvider>
  );
}

export default function DatePickerField({
  label,
  value,
  onChange,
  error,
  helperText,
  disabled,
  fullWidth = true,
  maxDate,
}: SiaDatePickerProps) {
  return (
    <DatesProvider>
      <DatePicker
        label={label}
        value={toDate(value)}
        onChange={(date) => onChange(toIso(date as Date | null))}
        disabled={disabled}
        maxDate={toDate(maxDate) ?? undefined}
        slotProps={{ textField: { fullWidth, error, helperText, margin: "dense", size: "small" }, field: { clearable: true } }}
      />
    </DatesProvider>
  );
}

/** Date and time (dd/MM/yyyy HH:mm, 24 h) of an ISO instant, in the browser's time zone. */
export function DateTimePickerField({
  label,
  value,
  onChange,
  error,
  helperText,
  disabled,
  fullWidth = true,
}: SiaDateTimePickerProps) {
  const date = value ? new Date(value) : null;
  return (
    <DatesProvider>
      <DateTimePicker
        label={label}
        value={date && !Number.isNaN(date.getTime()) ? date : null}
        onChange={(next) => {
          const instant = next as Date | null;
          onChange(instant && !Number.isNaN(instant.getTime()) ? instant.toISOString() : null);
        }}
        ampm={false}
        disabled={disabled}
        slotProps={{ textField: { fullWidth, error, helperText, margin: "dense", size: "small" }, field: { clearable: true } }}
      />
    </DatesProvider>
  );
}
