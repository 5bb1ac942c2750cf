/**
 * Date pickers (MUI X, date-fns `es`, DD/MM/AAAA, typed with the keyboard or picked) — the only date inputs
 * of the app: `SiaDatePicker` / `SiaDateTimePicker` are controlled (dialogs, pages), `DatePickerInput` /
 * `DateTimePickerInput` are react-admin inputs (forms, list filters). Dates travel as ISO `yyyy-MM-dd`,
 * instants as ISO strings.
 */

import { TextField } from "@mui/material";
import { lazy, type ReactNode, Suspense } from "react";
import { FieldTitle, type InputProps, useInput, useResourceContext, useTranslate } from "react-admin";
import type { SiaDatePickerProps, SiaDateTimePickerProps } from "./dateValues";

export type { SiaDatePickerProps, SiaDateTimePickerProps } from "./dateValues";
export { formatDate, toDate, toIso } from "./dateValues";

// The picker library loads with the first date field shown (DatePickerField.tsx).
const DatePickerField = lazy(() => import("./DatePickerField"));
const DateTimePickerField = lazy(() => import("./DatePickerField").then((m) => ({ default: m.DateTimePickerField })));

function PickerFallback({ label, fullWidth = true, error, helperText }: SiaDateTimePickerProps) {
  return (
    <TextField label={label} fullWidth={fullWidth} error={error} helperText={helperText} margin="dense" size="small" disabled />
  );
}

export function SiaDatePicker(props: SiaDatePickerProps) {
  return (
    <Suspense fallback={<PickerFallback {...props} />}>
      <DatePickerField {...props} />
    </Suspense>
  );
}

export function SiaDateTimePicker(props: SiaDateTimePickerProps) {
  return (
    <Suspense fallback={<PickerFallback {...props} />}>
      <DateTimePickerField {...props} />
    </Suspense>
  );
}

type PickerInputProps = InputProps & { fullWidth?: boolean; disabled?: boolean; helperText?: ReactNode };

/** What a react-admin input gives a picker: its label, value, change and error (translated). */
function usePickerInput(props: PickerInputProps) {
  const resource = useResourceContext(props);
  const translate = useTranslate();
  const { field, fieldState, isRequired } = useInput(props);
  const error = fieldState.error?.message;
  return {
    label: <FieldTitle label={props.label} source={props.source} resource={resource} isRequired={isRequired} />,
    value: field.value,
    onChange: (v: string | null) => field.onChange(v),
    error: Boolean(error),
    helperText: error
      ? translate(error, { _: error })
      : typeof props.helperText === "string"
        ? translate(props.helperText, { _: props.helperText })
        : (props.helperText ?? " "),
    disabled: props.disabled,
    fullWidth: props.fullWidth,
  };
}

/** A date (`yyyy-MM-dd`) as a react-admin input, in forms and in list filters. */
export function DatePickerInput(props: PickerInputProps) {
  return <SiaDatePicker {...usePickerInput(props)} />;
}

/** A date and time (ISO instant) as a react-admin input. */
export function DateTimePickerInput(props: PickerInputProps) {
  return <SiaDateTimePicker {...usePickerInput(props)} />;
}
