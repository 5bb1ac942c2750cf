/**
 * The activity dialog (SPEC §2): the form and the glossary as tabs; Guardar, Eliminar (after a
 * confirmation), Duplicar and the favourite star; a closed week's activity shown read-only with its
 * reason; an imported event's problems at the top. It never writes: the page saves (to the server or
 * into the local saved week) in onSubmit, and a refusal leaves everything the user typed in place, each
 * field's message under its field.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import StarIcon from "@mui/icons-material/Star";
import StarBorderIcon from "@mui/icons-material/StarBorder";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  Tab,
  Tabs,
  Tooltip,
} from "@mui/material";
import { useRef, useState } from "react";
import { Confirm, type HttpError, useTranslate } from "react-admin";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { fieldLabel } from "../../../admin/i18n/fieldLabels";
import type { Activity } from "../../../core/activity";
import { changedFields, pickFields } from "../../../core/changedFields";
import { messages } from "../../../core/messages";
import { activitySchema } from "../../../core/schemas/activity";
import { usePhone } from "../PhoneDay";
import { ActivityForm } from "./ActivityForm";
import { Glossary } from "./Glossary";
import { activityFieldLabel } from "./labels";
import type { PickedLabels } from "./TypeFields";
import type { ActivityDialogTarget, ActivityFormValues, AppSettingsLite, ChoiceLabels } from "./types";
import { useActivityTypes } from "./useChoices";

const resolver = zodResolver(activitySchema);

/** Fields with an input of their own: a server message for any other goes to the top, with its label. */
const SHOWN_UNDER_FIELD: Partial<Record<string, keyof ActivityFormValues>> = {
  begins_at: "begins_at",
  ends_at: "ends_at",
  action_type: "action_type",
  description: "description",
  activity_type_catalog_id: "activity_type_catalog_id",
  ownerable_id: "ownerable_id",
  ownerable_type: "ownerable_id",
  project_id: "project_id",
  product_catalog_id: "product_catalog_id",
};

const idOrNull = (v: unknown) => (typeof v === "number" && v > 0 ? v : null);

function valuesOf(target: ActivityDialogTarget, employeeId: number | null): ActivityFormValues {
  const a = target.initial;
  return {
    begins_at: target.begins.toISOString(),
    ends_at: target.ends.toISOString(),
    action_type: (a.action_type as ActivityFormValues["action_type"]) ?? "project",
    description: a.description ?? "",
    activity_type_catalog_id: a.activity_type_catalog_id ?? null,
    ownerable_id: a.ownerable_id ?? null,
    ownerable_type: a.ownerable_type ?? null,
    project_id: a.project_id ?? null,
    product_catalog_id: a.product_catalog_id ?? null,
    ticket_id: a.ticket_id ?? null,
    ticket_name: a.ticket_name ?? null,
    short_title: a.short_title ?? null,
    // A new activity is no favourite, even one started from a favourite.
    is_favorite: target.mode === "edit" ? !!a.is_favorite : false,
    employee_id: idOrNull(a.employee_id) ?? employeeId,
  };
}

function labelsOf(a: Partial<Activity>): PickedLabels {
  return {
    project: a.project_id
      ? { id: a.project_id, label: [a.project_code, a.project_name].filter(Boolean).join(" – ") || `#${a.project_id}` }
      : null,
    owner: a.ownerable_id
      ? { id: a.ownerable_id, label: a.ownerable_name ?? `#${a.ownerable_id}`, kind: a.ownerable_type ?? "Client" }
      : null,
    product: a.product_catalog_id ? { id: a.product_catalog_id, label: a.product_name ?? `#${a.product_catalog_id}` } : null,
  };
}

/** The schema's output (instants as Dates, fields a type does not carry cleared) as the form's plain values. */
function plain(parsed: Record<string, unknown>, fallback: ActivityFormValues): ActivityFormValues {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
  const out = { ...fallback } as Record<string, unknown>;
  for (const key of Object.keys(fallback)) if (key in parsed) out[key] = parsed[key] ?? null;
  return {
    ...(out as unknown as ActivityFormValues),
    begins_at: iso(parsed.begins_at),
    ends_at: iso(parsed.ends_at),
    description: String(parsed.description ?? ""),
    is_favorite: !!parsed.is_favorite,
  };
}

export interface ActivityDialogProps {
  target: ActivityDialogTarget | null;
  employeeId: number | null;
  settings: AppSettingsLite;
  onClose(): void;
  /**
   * The page saves (to the server, or into the local draft week). Rejecting with react-admin's HttpError
   * whose body is {errors: {field: [msg] | msg}} puts each message under its field (base → top); a 409
   * whose body is {activity} (the record as it is now) shows that record with this person's changes over it.
   * `changed` names the fields this person changed since the form read the record.
   */
  onSubmit(values: ActivityFormValues, labels: ChoiceLabels, changed: (keyof ActivityFormValues)[]): Promise<void>;
  onDelete?(): Promise<void>;
  onDuplicate?(values: ActivityFormValues, begins: Date, ends: Date): void;
}

/** One object per opening: a new target is a fresh form. */
const openings = new WeakMap<ActivityDialogTarget, number>();
let lastOpening = 0;
const openingOf = (target: ActivityDialogTarget) => {
  if (!openings.has(target)) openings.set(target, ++lastOpening);
  return openings.get(target);
};

export function ActivityDialog(props: ActivityDialogProps) {
  if (!props.target) return null;
  return <OpenDialog key={openingOf(props.target)} {...props} target={props.target} />;
}

function OpenDialog(props: ActivityDialogProps & { target: ActivityDialogTarget }) {
  const { target } = props;
  const translate = useTranslate();
  // A phone's whole screen: the form's fields and times need its full width.
  const phone = usePhone();
  const types = useActivityTypes();
  const [tab, setTab] = useState(0);
  const [topErrors, setTopErrors] = useState<string[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [labels, setLabels] = useState<PickedLabels>(() => labelsOf(target.initial));
  // What the form read: a save sends what differs from it, and a 409 moves it to the record as it is now.
  const baseline = useRef<ActivityFormValues>(valuesOf(target, props.employeeId));
  const form = useForm<ActivityFormValues>({
    resolver: resolver as never,
    defaultValues: baseline.current,
  });
  const { control, handleSubmit, reset, setValue, setError, getValues, formState } = form;
  const favourite = useWatch({ control, name: "is_favorite" });

  const readOnly = !!target.readOnlyReason;
  const imported = target.errors !== undefined;
  const canDelete = !readOnly && !!props.onDelete && (target.canDelete ?? target.mode === "edit");
  const canDuplicate = !!props.onDuplicate && (target.canDuplicate ?? target.mode === "edit");
  const busy = formState.isSubmitting || deleting;

  const choiceLabels = (values: ActivityFormValues): ChoiceLabels => ({
    projectLabel: values.project_id ? (labels.project?.label ?? null) : null,
    ownerLabel: values.ownerable_id ? (labels.owner?.label ?? null) : null,
    productLabel: values.product_catalog_id ? (labels.product?.label ?? null) : null,
    typeCode: types.find((t) => t.id === values.activity_type_catalog_id)?.code ?? null,
  });

  /** A refusal: field messages under their fields, the rest (and a message about the whole) at the top. */
  const refused = (error: unknown) => {
    const e = error as HttpError | undefined;
    const fields = (e?.body as { errors?: Record<string, unknown> } | undefined)?.errors ?? {};
    const top: string[] = [];
    const fieldToasts = new Set<string>();
    for (const [field, raw] of Object.entries(fields)) {
      const text = Array.isArray(raw) ? raw.map(String).join("; ") : String(raw);
      const first = Array.isArray(raw) ? String(raw[0] ?? "") : text;
      fieldToasts.add(`${messages.paramError(fieldLabel(field, "activities"))}: ${first}`);
      const name = SHOWN_UNDER_FIELD[field.split(".")[0]];
      if (field === "base") top.push(text);
      else if (name) setError(name, { type: "server", message: text });
      else top.push(`${activityFieldLabel(field) ?? field}: ${text}`);
    }
    const message = e?.message || messages.unexpected;
    // The HttpError's message repeats the first field's message when there is no base one.
    if (!fieldToasts.has(message) && !top.includes(message)) top.unshift(message);
    setTopErrors(top);
  };

  /**
   * Someone saved the record meanwhile: the form now shows their version with only this person's changes
   * over it, and reads it as the new baseline, so the next Guardar sends just those changes.
   */
  const rebased = (current: Partial<Activity>, values: ActivityFormValues) => {
    const changed = changedFields(baseline.current, values);
    const now = valuesOf(
      { ...target, initial: current, begins: new Date(String(current.begins_at)), ends: new Date(String(current.ends_at)) },
      props.employeeId,
    );
    baseline.current = now;
    reset({ ...now, ...pickFields(values, changed) });
    const theirs = labelsOf(current);
    setLabels((l) => ({
      project: changed.includes("project_id") ? l.project : theirs.project,
      owner: changed.includes("ownerable_id") ? l.owner : theirs.owner,
      product: changed.includes("product_catalog_id") ? l.product : theirs.product,
    }));
  };

  const submit = handleSubmit(async (parsed) => {
    const values = plain(parsed as unknown as Record<string, unknown>, getValues());
    setTopErrors([]);
    try {
      await props.onSubmit(values, choiceLabels(values), changedFields(baseline.current, values));
    } catch (error) {
      const e = error as HttpError | undefined;
      const current = e?.status === 409 ? (e.body?.activity as Partial<Activity> | undefined) : undefined;
      if (current) rebased(current, values);
      refused(error);
    }
  });

  const remove = async () => {
    if (!props.onDelete) return;
    setDeleting(true);
    setTopErrors([]);
    try {
      await props.onDelete();
    } catch (error) {
      refused(error);
    } finally {
      setDeleting(false);
      setConfirmDelete(false);
    }
  };

  const startFrom = (a: Activity) => {
    const { begins_at, ends_at, employee_id } = getValues();
    reset({ ...valuesOf({ ...target, initial: a }, props.employeeId), begins_at, ends_at, employee_id });
    setLabels(labelsOf(a));
  };

  const [askDiscard, setAskDiscard] = useState(false);
  /** A click outside or Escape: what was typed is not thrown away without asking. */
  const closeAsked = () => {
    if (busy) return;
    if (!readOnly && changedFields(baseline.current, getValues()).length) setAskDiscard(true);
    else props.onClose();
  };

  const title = target.rowOnly
    ? translate("sia.timesheet_grid.add_row_title")
    : readOnly
      ? translate("sia.activity_form.read_only_title")
      : imported
        ? translate("sia.timesheet_import.edit_title")
        : translate(target.mode === "edit" ? "sia.activity_form.edit_title" : "sia.activity_form.new_title");

  return (
    <Dialog
      open
      onClose={closeAsked}
      maxWidth="sm"
      fullWidth
      fullScreen={phone}
      data-testid={imported ? "imported-activity-modal" : "activity-modal"}
    >
      <DialogTitle sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Box sx={{ flex: 1 }}>{title}</Box>
        {!target.rowOnly && (
          <Tooltip title={translate("sia.activity_form.favourite")}>
            <span>
              <IconButton
                aria-label={translate("sia.activity_form.favourite")}
                aria-pressed={favourite}
                onClick={() => setValue("is_favorite", !favourite, { shouldDirty: true })}
                disabled={readOnly}
                data-testid="favourite"
              >
                {favourite ? <StarIcon color="warning" /> : <StarBorderIcon />}
              </IconButton>
            </span>
          </Tooltip>
        )}
      </DialogTitle>
      <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ px: 3 }}>
        <Tab label={translate("sia.activity_form.tab_activity")} />
        <Tab label={translate("sia.activity_form.tab_glossary")} />
      </Tabs>
      {/* The glossary scrolls with nothing focusable in it: the keyboard scrolls it from here (WCAG 2.1.1). */}
      <DialogContent tabIndex={tab === 1 ? 0 : undefined}>
        {readOnly && (
          <Alert severity="info" sx={{ mt: 1 }} data-testid="activity-read-only">
            {target.readOnlyReason}
          </Alert>
        )}
        {imported && (target.errors?.length ?? 0) > 0 && (
          <Alert severity="warning" sx={{ mt: 1 }} data-testid="imported-activity-errors">
            {target.errors?.map((e) => (
              <div key={e}>{e}</div>
            ))}
          </Alert>
        )}
        {topErrors.length > 0 && (
          <Alert severity="error" sx={{ mt: 1 }} data-testid="activity-error">
            {topErrors.map((e) => (
              <div key={e}>{e}</div>
            ))}
          </Alert>
        )}
        {tab === 1 && <Glossary />}
        <FormProvider {...form}>
          {/* Kept mounted behind the glossary: switching tabs loses nothing typed. */}
          <Stack
            spacing={2}
            sx={{ mt: 1, display: tab === 0 ? "flex" : "none" }}
            component="form"
            id="activity-form"
            noValidate
            onSubmit={submit}
          >
            <ActivityForm
              creating={target.mode === "create"}
              disabled={readOnly}
              employeeId={props.employeeId}
              settings={props.settings}
              labels={labels}
              onLabels={(change) => setLabels((l) => ({ ...l, ...change }))}
              onStart={startFrom}
              withTimes={!target.rowOnly}
            />
          </Stack>
        </FormProvider>
      </DialogContent>
      <DialogActions>
        {canDelete &&
          (confirmDelete ? (
            <>
              <Box sx={{ mr: 1 }}>{messages.confirmDeleteActivity}</Box>
              <Button color="error" onClick={remove} disabled={busy}>
                {translate("sia.activity_form.confirm_delete")}
              </Button>
              <Button onClick={() => setConfirmDelete(false)}>{translate("sia.activity_form.keep")}</Button>
            </>
          ) : (
            <Button color="error" onClick={() => setConfirmDelete(true)} disabled={busy}>
              {translate("sia.activity_form.delete")}
            </Button>
          ))}
        {canDuplicate && (
          <Button
            onClick={() => {
              const values = getValues();
              props.onDuplicate?.(values, new Date(values.begins_at), new Date(values.ends_at));
            }}
          >
            {translate("sia.activity_form.duplicate")}
          </Button>
        )}
        <Box sx={{ flex: 1 }} />
        <Button onClick={props.onClose}>{translate("sia.activity_form.cancel")}</Button>
        {!readOnly && tab === 0 && (
          <Button type="submit" form="activity-form" variant="contained" disabled={busy}>
            {translate(target.rowOnly ? "sia.timesheet_grid.add_row" : "sia.activity_form.save")}
          </Button>
        )}
      </DialogActions>
      <Confirm
        isOpen={askDiscard}
        title="sia.timesheet_more.discard_title"
        content="sia.timesheet_more.discard_content"
        confirm="sia.timesheet_more.discard"
        cancel="sia.timesheet_more.keep_editing"
        onConfirm={props.onClose}
        onClose={() => setAskDiscard(false)}
      />
    </Dialog>
  );
}
