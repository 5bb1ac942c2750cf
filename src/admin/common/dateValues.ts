/**
 * The date pickers' values: the API's ISO dates (`yyyy-MM-dd`) to and from the picker's Date, the Mexican
 * display, and the pickers' props. Apart from the pickers so the lazily loaded picker (DatePickerField.tsx)
 * and the inputs that load it (DatePickerInput.tsx) import them without importing each other.
 */
import { format, isValid, parseISO } from "date-fns";
import type { ReactNode } from "react";
import { formatDate as formatDay } from "../../core/week";

export const toDate = (value: unknown): Date | null => {
  if (typeof value !== "string" || !value) return null;
  const date = parseISO(value.slice(0, 10));
  return isValid(date) ? date : null;
};
export const toIso = (date: Date | null): string | null => (date && isValid(date) ? format(date, "yyyy-MM-dd") : null);

/** An ISO date shown the Mexican way (dd/MM/yyyy), '—' when empty: the one formatter of src/core/week.ts. */
export const formatDate = (value: unknown) => (typeof value === "string" ? formatDay(value) : "—");

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

/** An ISO instant (`2026-12-01T16:00:00.000Z`) picked as date and time. */
export type SiaDateTimePickerProps = Omit<SiaDatePickerProps, "maxDate">;
