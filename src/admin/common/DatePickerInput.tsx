/**
 * Date pickers (MUI X, date-fns `es`) that read and write the API's ISO dates (`yyyy-MM-dd`):
 * `SiaDatePicker` is controlled (dialogs), `DatePickerInput` is a react-admin form input.
 */
import { AdapterDateFns } from "@mui/x-date-pickers/AdapterDateFns";
import { DatePicker } from "@mui/x-date-pickers/DatePicker";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { esES } from "@mui/x-date-pickers/locales";
import { format, isValid, parseISO } from "date-fns";
import { es } from "date-fns/locale";
import type { ReactNode } from "react";
import { FieldTitle, type InputProps, useInput, useResourceContext, useTranslate } from "react-admin";

const localeText = esES.components.MuiLocalizationProvider.defaultProps.localeText;

export const toDate = (value: unknown): Date | null => {
  if (typeof value !== "string" || !value) return null;
  const date = parseISO(value.slice(0, 10));
  return isValid(date) ? date : null;
};
export const toIso = (date: Date | null): string | null => (date && isValid(date) ? format(date, "yyyy-MM-dd") : null);

/** An ISO date shown the Mexican way (dd/MM/yyyy), '—' when empty. */
export const formatDate = (value: unknown) => {
  const date = toDate(value);
  return date ? format(date, "dd/MM/yyyy", { locale: es }) : "—";
};

export function DatesProvider({ children }: { children: ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={es} localeText={localeText}>
      {children}
    </LocalizationProvider>
  );
}

export function SiaDatePicker({
  label,
  value,
  onChange,
  error,
  helperText,
  disabled,
  fullWidth = true,
  maxDate,
}: {
  label: ReactNode;
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  error?: boolean;
  helperText?: ReactNode;
  disabled?: boolean;
  fullWidth?: boolean;
  /** Latest date that can be picked (ISO). */
  maxDate?: string;
}) {
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

export function DatePickerInput(props: InputProps & { fullWidth?: boolean; disabled?: boolean }) {
  const resource = useResourceContext(props);
  const translate = useTranslate();
  const { field, fieldState, isRequired } = useInput(props);
  const error = fieldState.error?.message;
  return (
    <SiaDatePicker
      label={<FieldTitle label={props.label} source={props.source} resource={resource} isRequired={isRequired} />}
      value={field.value}
      onChange={(v) => field.onChange(v)}
      error={Boolean(error)}
      helperText={error ? translate(error, { _: error }) : " "}
      disabled={props.disabled}
      fullWidth={props.fullWidth}
    />
  );
}
