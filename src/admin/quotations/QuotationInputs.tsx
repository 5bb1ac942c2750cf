/**
 * The quotation form (SPEC §3): contact, prospect, product, comment and the optional calendar event
 * (date and time, QUOTATION_EVENT_DEFAULT_MINUTES long unless changed, invited e-mails).
 */
import { Grid } from "@mui/material";
import { useEffect } from "react";
import { AutocompleteInput, BooleanInput, NumberInput, ReferenceInput, TextArrayInput, TextInput } from "react-admin";
import { useFormContext, useWatch } from "react-hook-form";
import { QUOTATION_EVENT_DEFAULT_MINUTES } from "../../core/constants";
import { DateTimePickerInput } from "../common/DatePickerInput";

/** A stored event (the calendar's shape) as the form edits it (quotationEventSchema's shape and order). */
export function eventForForm(event: unknown) {
  const e = event as {
    start?: { dateTime?: string };
    end?: { dateTime?: string };
    duration_minutes?: number;
    summary?: string | null;
    description?: string | null;
    attendees?: Array<{ email: string } | string>;
  } | null;
  if (!e?.start?.dateTime) return null;
  const start = new Date(e.start.dateTime);
  const end = e.end?.dateTime ? new Date(e.end.dateTime) : null;
  const minutes =
    e.duration_minutes ?? (end ? Math.round((end.getTime() - start.getTime()) / 60_000) : QUOTATION_EVENT_DEFAULT_MINUTES);
  return {
    starts_at: start.toISOString(),
    duration_minutes: minutes,
    summary: e.summary ?? null,
    description: e.description ?? null,
    attendees: (e.attendees ?? []).map((a) => (typeof a === "string" ? a : a.email)),
  };
}

export const emptyEvent = () => ({
  starts_at: null,
  duration_minutes: QUOTATION_EVENT_DEFAULT_MINUTES,
  summary: null,
  description: null,
  attendees: [],
});

function EventInputs() {
  const withEvent = useWatch({ name: "with_event" });
  const { getValues, setValue } = useFormContext();
  // Ticked on a quotation without an event: start from the defaults (one hour, nobody invited).
  useEffect(() => {
    if (withEvent && !getValues("event")) setValue("event", emptyEvent());
  }, [withEvent, getValues, setValue]);
  if (!withEvent) return null;
  return (
    <>
      <Grid size={{ xs: 12, md: 4 }}>
        <DateTimePickerInput source="event.starts_at" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 2 }}>
        <NumberInput source="event.duration_minutes" min={5} step={5} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="event.summary" fullWidth helperText="sia.quotations.summary_help" />
      </Grid>
      <Grid size={12}>
        <TextArrayInput source="event.attendees" fullWidth helperText="sia.quotations.attendees_help" />
      </Grid>
      <Grid size={12}>
        <TextInput source="event.description" multiline fullWidth />
      </Grid>
    </>
  );
}

export function QuotationInputs() {
  return (
    <Grid container columnSpacing={2} sx={{ width: "100%" }}>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="contact_name" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <ReferenceInput source="prospect_id" reference="prospects" sort={{ field: "name", order: "ASC" }}>
          <AutocompleteInput optionText="name" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <ReferenceInput source="product_catalog_id" reference="products" sort={{ field: "name", order: "ASC" }}>
          <AutocompleteInput optionText="name" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={12}>
        <TextInput source="audit_comment" multiline fullWidth />
      </Grid>
      <Grid size={12}>
        <BooleanInput source="with_event" />
      </Grid>
      <EventInputs />
    </Grid>
  );
}
