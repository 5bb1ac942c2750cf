/**
 * Date pickers (MUI X, date-fns `es`) that read and write the API's ISO dates (`yyyy-MM-dd`):
 * `SiaDatePicker` is controlled (dialogs), `DatePickerInput` is a react-admin form input.
 */

import { TextField } from "@mui/material";
import { lazy, Suspense } from "react";
import { FieldTitle, type InputProps, useInput, useResourceContext, useTranslate } from "react-admin";

export type { SiaDatePickerProps } from "./dateValues";
export { formatDate, toDate, toIso } from "./dateValues";

import type { SiaDatePickerProps } from "./dateValues";

// The picker library loads with the first date field shown (DatePickerField.tsx).
const DatePickerField = lazy(() => import("./DatePickerField"));

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
