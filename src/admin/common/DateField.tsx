/**
 * The date field of every list and show screen, in place of react-admin's DateField: that one writes
 * in the browser's locale and zone («27 nov 2026, 5:08 a.m.», «4/2/2027»); this one goes through the one
 * formatter of src/core/week.ts (DD/MM/AAAA, and with `showTime` DD/MM/AAAA HH:mm in the firm's zone).
 */
import { Typography } from "@mui/material";
import { type FieldProps, useFieldValue } from "react-admin";
import { formatDate, formatDateTime } from "../../core/week";

export function SiaDateField({ source, showTime = false, emptyText }: FieldProps & { showTime?: boolean; emptyText?: string }) {
  const value = useFieldValue({ source });
  const text = typeof value === "string" ? (showTime ? formatDateTime(value) : formatDate(value)) : "—";
  return (
    <Typography component="span" variant="body2">
      {text === "—" && emptyText !== undefined ? emptyText : text}
    </Typography>
  );
}
