/**
 * Date pickers (MUI X, date-fns `es`) that read and write the API's ISO dates (`yyyy-MM-dd`):
 * `SiaDatePicker` is controlled (dialogs), `DatePickerInput` is a react-admin form input.
 */

import { TextField } from "@mui/material";
import { format, isValid, parseISO } from "date-fns";
import { es } from "date-fns/locale";
import { lazy, type ReactNode, Suspense } from "react";
import { FieldTitle, type InputProps, useInput, useResourceContext, useTranslate } from "react-admin";

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

// The picker library loads with the first date field shown (DatePickerField.tsx).
const DatePickerField = lazy(() => import("./DatePickerField"));

export interface SiaDatePickerProps {
  label: ReactNode;
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  error?: boolean;
  helperText?: ReactNode;
  disabled?: boolean;
  fullWidth?: boolean;
  /** Latest date that can be picked (ISO). */
  maxDate?: string;
}

export function SiaDatePicker(props: SiaDatePickerProps) {
  const { label, fullWidth = true, error, helperText } = props;
  return (
    <Suspense
      fallback={
        <TextField
          label={label}
          fullWidth={fullWidth}
          error={error}
          helperText={helperText}
          margin="dense"
          size="small"
          disabled
        />
      }
    >
      <DatePickerField {...props} />
    </Suspense>
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
