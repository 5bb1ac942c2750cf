/**
 * The activities modal (SPEC §2): create, edit, duplicate, favourite, delete, and a glossary tab. The form
 * parses with the shared activity schema (src/core/schemas/activity.ts); fields follow the action type.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import StarIcon from "@mui/icons-material/Star";
import StarBorderIcon from "@mui/icons-material/StarBorder";
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  MenuItem,
  Stack,
  Tab,
  Tabs,
  TextField,
  Tooltip,
} from "@mui/material";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type HttpError, type Identifier, useDataProvider, useNotify, useTranslate } from "react-admin";
import { Controller, useForm } from "react-hook-form";
import { ACTION_LABELS, ACTION_TYPES, ACTIVITY_TYPES, MAX_PER_PAGE, VACATION_DESCRIPTION } from "../core/constants";
import type { LocalEvent } from "../core/localEvent";
import { messages } from "../core/messages";
import { activitySchema } from "../core/schemas/activity";
import { hhmm, localDate, zonedTime } from "../core/week";
import type { SiaDataProvider } from "../dataProvider";
import { AsyncPicker, type PickerOption } from "./AsyncPicker";
import { isLocked } from "./colors";
import { Glossary } from "./Glossary";
import type { Activity } from "./useWeekActivities";

export interface ModalTarget {
  mode: "create" | "edit";
  activity?: Activity;
  /** Template for a new activity (favourite, recent, duplicate). */
  template?: Partial<Activity>;
  begins: Date;
  ends: Date;
  /** 'edit imported activity': a local event of the saved week, saved locally (never to the server). */
  local?: LocalEvent;
}

/** What the form gives back for a local event (SPEC §3 field names), with the pickers' labels. */
export interface LocalEdit {
  values: Record<string, unknown>;
  projectLabel: string | null;
  ownerLabel: string | null;
}

/** A local event as the modal's template (same fields as an activity). */
export function templateOfLocal(e: LocalEvent): Partial<Activity> {
  return {
    action_type: e.actionType,
    description: e.description,
    activity_type_catalog_id: e.activityTypeCatalogId,
    ownerable_id: e.clientId,
    ownerable_type: e.ownerableType,
    ownerable_name: e.clientName,
    project_id: e.projectId,
    project_code: e.project_code,
    project_name: e.projectName,
    product_catalog_id: e.productId,
    ticket_id: e.ticketId,
    ticket_name: e.ticketName,
    is_favorite: e.favorite,
    short_title: e.shortTitle,
  };
}

/** The form's values → the local event's changes (SPEC §3 names). */
export function localChanges({ values, projectLabel, ownerLabel }: LocalEdit): Partial<LocalEvent> {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
  const num = (v: unknown) => (v === null || v === undefined || v === "" ? null : Number(v));
  return {
    start: iso(values.begins_at),
    end: iso(values.ends_at),
    description: String(values.description ?? ""),
    actionType: values.action_type as LocalEvent["actionType"],
    activityTypeCatalogId: num(values.activity_type_catalog_id),
    clientId: num(values.ownerable_id),
    clientName: ownerLabel,
    ownerableType: (values.ownerable_type as LocalEvent["ownerableType"]) ?? null,
    projectId: num(values.project_id),
    projectName: projectLabel,
    productId: num(values.product_catalog_id),
    ticketId: (values.ticket_id as string | null) ?? null,
    ticketName: (values.ticket_name as string | null) ?? null,
    favorite: !!values.is_favorite,
  };
}

export interface AppSettingsLite {
  default_customer_id?: number | null;
  default_customer_name?: string | null;
  support_excluded_customer_id?: number | null;
}

interface FormValues {
  begins_at: string;
  ends_at: string;
  action_type: string;
  description: string;
  activity_type_catalog_id: number | null;
  ownerable_id: number | null;
  ownerable_type: "Client" | "Prospect" | null;
  project_id: number | null;
  product_catalog_id: number | null;
  ticket_id: string | null;
  ticket_name: string | null;
  is_favorite: boolean;
  employee_id?: Identifier | null;
}

const resolver = zodResolver(activitySchema as never);
const toMinutes = (t: string) => {
  const [h, m] = t.split(":").map(Number);
  return h * 60 + m;
};

function valuesOf(target: ModalTarget, employeeId: Identifier | null): FormValues {
  const a = target.activity ?? target.template ?? {};
  return {
    begins_at: target.begins.toISOString(),
    ends_at: target.ends.toISOString(),
    action_type: a.action_type ?? "project",
    description: a.description ?? "",
    activity_type_catalog_id: a.activity_type_catalog_id ?? null,
    ownerable_id: a.ownerable_id ?? null,
    ownerable_type: a.ownerable_type ?? null,
    project_id: a.project_id ?? null,
    product_catalog_id: a.product_catalog_id ?? null,
    ticket_id: a.ticket_id ?? null,
    ticket_name: a.ticket_name ?? null,
    is_favorite: target.mode === "edit" ? !!a.is_favorite : false,
    employee_id: target.activity?.employee_id ?? employeeId,
  };
}

export function ActivityModal(props: {
  target: ModalTarget | null;
  employeeId: Identifier | null;
  settings: AppSettingsLite;
  onClose(): void;
  onSaved(): void;
  onDuplicate(template: Partial<Activity>, begins: Date, ends: Date): void;
  /** Saving or removing an imported (local) event. */
  onSaveLocal?(edit: LocalEdit): void;
  onRemoveLocal?(event: LocalEvent): void;
}) {
  const { target, settings } = props;
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [tab, setTab] = useState(0);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [starters, setStarters] = useState<Activity[]>([]);
  const [labels, setLabels] = useState<{ project?: PickerOption | null; owner?: PickerOption | null }>({});
  const [products, setProducts] = useState<{ id: number; name: string }[]>([]);
  const [types, setTypes] = useState<{ id: number; code: string; name: string }[]>([...ACTIVITY_TYPES]);
  const [tickets, setTickets] = useState<{ id: string; name: string }[]>([]);
  const [ticketError, setTicketError] = useState<string | null>(null);
  const [ticketSearch, setTicketSearch] = useState("");

  const locked = !!target?.activity && isLocked(target.activity);
  // The version this dialog read, moved on by its own saves (a star, then the form) so they never collide.
  const version = useRef<number | undefined>(undefined);
  useEffect(() => {
    version.current = target?.activity?.lock_version as number | undefined;
  }, [target]);
  const form = useForm<FormValues>({
    resolver: resolver as never,
    defaultValues: target ? valuesOf(target, props.employeeId) : undefined,
  });
  const { control, handleSubmit, reset, watch, setValue, setError, formState } = form;
  const actionType = watch("action_type");
  const beginsAt = watch("begins_at");
  const endsAt = watch("ends_at");

  const applyTemplate = useCallback(
    (t: ModalTarget) => {
      reset(valuesOf(t, props.employeeId));
      const a = t.activity ?? t.template;
      setLabels({
        project: a?.project_id
          ? { id: a.project_id, label: [a.project_code, a.project_name].filter(Boolean).join(" – ") || `#${a.project_id}` }
          : null,
        owner: a?.ownerable_id
          ? { id: a.ownerable_id, label: a.ownerable_name ?? `#${a.ownerable_id}`, kind: a.ownerable_type ?? "Client" }
          : null,
      });
    },
    [reset, props.employeeId],
  );

  useEffect(() => {
    if (!target) return;
    applyTemplate(target);
    setTab(0);
    setServerError(null);
    setTickets([]);
    setTicketError(null);
    setConfirmDelete(false);
    if (target.mode === "create") {
      const employee = props.employeeId ?? undefined;
      Promise.all([
        dataProvider
          .getList<Activity>("activities", {
            pagination: { page: 1, perPage: 50 },
            sort: { field: "begins_at", order: "DESC" },
            filter: { by_favorite: true, by_employee: employee },
          })
          .then((r) => r.data)
          .catch(() => []),
        dataProvider.recentActivities(employee).catch(() => []),
      ]).then(([favs, recent]) =>
        setStarters([...favs, ...(recent as Activity[]).filter((r) => !favs.some((f) => f.id === r.id))]),
      );
    }
  }, [target, applyTemplate, dataProvider, props.employeeId]);

  useEffect(() => {
    dataProvider
      .getList("products", {
        pagination: { page: 1, perPage: MAX_PER_PAGE },
        sort: { field: "name", order: "ASC" },
        filter: { selectable: true },
      })
      .then((r) =>
        setProducts((r.data as { id: number; name: string; is_selectable?: boolean }[]).filter((p) => p.is_selectable !== false)),
      )
      .catch(() => setProducts([]));
    dataProvider
      .getList("activity_type_catalogs", {
        pagination: { page: 1, perPage: MAX_PER_PAGE },
        sort: { field: "id", order: "ASC" },
        filter: {},
      })
      .then((r) => r.data.length && setTypes(r.data as never))
      .catch(() => undefined);
  }, [dataProvider]);

  const searchProjects = useCallback(
    (q: string) =>
      dataProvider
        .getList("projects", {
          pagination: { page: 1, perPage: 20 },
          sort: { field: "project_code", order: "ASC" },
          filter: q ? { q } : {},
        })
        .then((r) => r.data.map((p) => ({ id: p.id as number, label: `${p.project_code} – ${p.name}` }))),
    [dataProvider],
  );
  const searchClients = useCallback(
    (q: string) =>
      dataProvider
        .getList("clients", {
          pagination: { page: 1, perPage: 20 },
          sort: { field: "name", order: "ASC" },
          filter: q ? { q } : {},
        })
        .then((r) =>
          r.data
            .filter((c) => c.id !== settings.support_excluded_customer_id)
            .map((c) => ({ id: c.id as number, label: c.name as string, kind: "Client" })),
        ),
    [dataProvider, settings.support_excluded_customer_id],
  );
  const searchOwners = useCallback(
    (q: string) =>
      dataProvider
        .searchClientsAndProspects(q)
        .then((r) => [
          ...r.clients.map((c) => ({ id: c.id as number, label: c.name as string, kind: "Client" })),
          ...r.prospects.map((p) => ({ id: p.id as number, label: `${p.name} (prospecto)`, kind: "Prospect" })),
        ]),
    [dataProvider],
  );

  const day = useMemo(() => (beginsAt ? localDate(new Date(beginsAt)) : ""), [beginsAt]);
  const setTimes = (date: string, start: string, end: string) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(start) || !/^\d{2}:\d{2}$/.test(end)) return;
    setValue("begins_at", zonedTime(date, toMinutes(start)).toISOString(), { shouldDirty: true });
    const endMinutes = toMinutes(end) === 0 ? 24 * 60 : toMinutes(end);
    setValue("ends_at", zonedTime(date, endMinutes).toISOString(), { shouldDirty: true });
  };
  const startText = beginsAt ? hhmm(new Date(beginsAt)) : "";
  const endText = endsAt ? hhmm(new Date(endsAt)) : "";

  const failed = (error: unknown) => {
    const e = error as HttpError;
    const fields = (e.body as { errors?: Record<string, string> } | undefined)?.errors ?? {};
    for (const [field, message] of Object.entries(fields)) setError(field as keyof FormValues, { message });
    setServerError(e.message ?? messages.unexpected);
    if (!Object.keys(fields).length) notify(e.message ?? messages.unexpected, { type: "error" });
  };

  const onSubmit = async (values: Record<string, unknown>) => {
    if (!target) return;
    if (target.local) {
      props.onSaveLocal?.({
        values,
        projectLabel: values.project_id ? (labels.project?.label ?? null) : null,
        ownerLabel: values.ownerable_id ? (labels.owner?.label ?? null) : null,
      });
      return;
    }
    setSaving(true);
    setServerError(null);
    try {
      if (target.mode === "edit" && target.activity) {
        await dataProvider.update("activities", {
          id: target.activity.id,
          data: { ...values, lock_version: version.current },
          previousData: {} as never,
        });
        notify(messages.activityEdited, { type: "success" });
      } else {
        await dataProvider.create("activities", { data: values });
        notify(messages.activitiesAllAdded, { type: "success" });
      }
      props.onSaved();
    } catch (error) {
      failed(error);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (target?.local) {
      setConfirmDelete(false);
      props.onRemoveLocal?.(target.local);
      return;
    }
    if (!target?.activity) return;
    setSaving(true);
    try {
      await dataProvider.delete("activities", { id: target.activity.id, previousData: target.activity });
      notify(messages.activityDeleted, { type: "success" });
      props.onSaved();
    } catch (error) {
      failed(error);
    } finally {
      setSaving(false);
      setConfirmDelete(false);
    }
  };

  const toggleFavourite = async () => {
    const next = !watch("is_favorite");
    setValue("is_favorite", next, { shouldDirty: true });
    if (target?.mode === "edit" && target.activity && !locked) {
      try {
        const { data } = await dataProvider.update("activities", {
          id: target.activity.id,
          data: { is_favorite: next, lock_version: version.current },
          previousData: {} as never,
        });
        version.current = data.lock_version as number | undefined;
        notify(messages.activityEdited, { type: "success" });
      } catch (error) {
        setValue("is_favorite", !next);
        failed(error);
      }
    }
  };

  const findTickets = async () => {
    setTicketError(null);
    try {
      setTickets(
        await dataProvider.searchTickets({
          search: ticketSearch,
          project_id: watch("project_id"),
          client_id: watch("ownerable_id"),
          product_catalog_id: watch("product_catalog_id"),
        }),
      );
    } catch (error) {
      setTicketError((error as Error).message);
    }
  };

  if (!target) return null;
  const err = (name: keyof FormValues) => formState.errors[name]?.message as string | undefined;
  const title = target.local
    ? translate("sia.timesheet_import.edit_title")
    : locked
      ? "Actividad (solo lectura)"
      : target.mode === "edit"
        ? "Editar actividad"
        : "Nueva actividad";

  return (
    <Dialog
      open
      onClose={props.onClose}
      maxWidth="sm"
      fullWidth
      data-testid={target.local ? "imported-activity-modal" : "activity-modal"}
    >
      <DialogTitle sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Box sx={{ flex: 1 }}>{title}</Box>
        <Tooltip title="Favorita">
          <span>
            <IconButton aria-label="Favorita" onClick={toggleFavourite} disabled={locked} data-testid="favourite">
              {watch("is_favorite") ? <StarIcon color="warning" /> : <StarBorderIcon />}
            </IconButton>
          </span>
        </Tooltip>
      </DialogTitle>
      <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ px: 3 }}>
        <Tab label="Actividad" />
        <Tab label="Glosario" />
      </Tabs>
      <DialogContent>
        {tab === 1 ? (
          <Glossary />
        ) : (
          <Stack spacing={2} sx={{ mt: 1 }} component="form" id="activity-form" onSubmit={handleSubmit(onSubmit as never)}>
            {locked && <Alert severity="error">{messages.activityFrozen}</Alert>}
            {target.local && !target.local.isValidate && (
              <Alert severity="warning" data-testid="imported-activity-errors">
                <AlertTitle>{target.local.summary}</AlertTitle>
                {(target.local.errors ?? []).map((e) => (
                  <div key={e}>{e}</div>
                ))}
              </Alert>
            )}
            {serverError && (
              <Alert severity="error" data-testid="activity-error">
                {serverError}
              </Alert>
            )}
            {target.mode === "create" && starters.length > 0 && (
              <TextField
                select
                size="small"
                label="Empezar desde una favorita o reciente"
                value=""
                onChange={(e) => {
                  const a = starters.find((s) => String(s.id) === e.target.value);
                  if (a) applyTemplate({ ...target, template: a });
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
            <Stack direction="row" spacing={1}>
              <TextField
                type="date"
                size="small"
                label="Fecha"
                value={day}
                disabled={locked}
                onChange={(e) => setTimes(e.target.value, startText, endText)}
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <TextField
                type="time"
                size="small"
                label="Inicio"
                value={startText}
                disabled={locked}
                onChange={(e) => setTimes(day, e.target.value, endText)}
                error={!!err("begins_at")}
                helperText={err("begins_at")}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 900 } }}
              />
              <TextField
                type="time"
                size="small"
                label="Fin"
                value={endText}
                disabled={locked}
                onChange={(e) => setTimes(day, startText, e.target.value)}
                error={!!err("ends_at")}
                helperText={err("ends_at")}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 900 } }}
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
                  label="Tipo"
                  disabled={locked}
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
            {actionType === "project" && (
              <>
                <AsyncPicker
                  label="Proyecto"
                  testId="project-picker"
                  value={labels.project ?? null}
                  search={searchProjects}
                  disabled={locked}
                  error={err("project_id")}
                  onChange={(o) => {
                    setLabels((l) => ({ ...l, project: o }));
                    setValue("project_id", o?.id ?? null, { shouldDirty: true });
                  }}
                />
                <Controller
                  control={control}
                  name="activity_type_catalog_id"
                  render={({ field }) => (
                    <TextField
                      select
                      size="small"
                      label="Tipo de actividad"
                      disabled={locked}
                      value={field.value ?? ""}
                      onChange={(e) => field.onChange(e.target.value === "" ? null : Number(e.target.value))}
                      error={!!err("activity_type_catalog_id")}
                      helperText={err("activity_type_catalog_id")}
                    >
                      {types.map((t) => (
                        <MenuItem key={t.id} value={t.id}>
                          {t.code} – {t.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </>
            )}
            {(actionType === "support" || actionType === "quote") && (
              <>
                <AsyncPicker
                  label={actionType === "support" ? "Cliente" : "Cliente o prospecto"}
                  testId="owner-picker"
                  value={labels.owner ?? null}
                  search={actionType === "support" ? searchClients : searchOwners}
                  disabled={locked}
                  error={err("ownerable_id")}
                  onChange={(o) => {
                    setLabels((l) => ({ ...l, owner: o }));
                    setValue("ownerable_id", o?.id ?? null, { shouldDirty: true });
                    setValue("ownerable_type", (o?.kind as "Client" | "Prospect" | undefined) ?? null, { shouldDirty: true });
                  }}
                />
                <Controller
                  control={control}
                  name="product_catalog_id"
                  render={({ field }) => (
                    <TextField
                      select
                      size="small"
                      label="Producto"
                      disabled={locked}
                      value={field.value ?? ""}
                      onChange={(e) => field.onChange(e.target.value === "" ? null : Number(e.target.value))}
                      error={!!err("product_catalog_id")}
                      helperText={err("product_catalog_id")}
                    >
                      {products.map((p) => (
                        <MenuItem key={p.id} value={p.id}>
                          {p.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </>
            )}
            {actionType === "support" && (
              <Stack spacing={1}>
                <Stack direction="row" spacing={1}>
                  <TextField
                    size="small"
                    label="Buscar ticket"
                    value={ticketSearch}
                    onChange={(e) => setTicketSearch(e.target.value)}
                    disabled={locked}
                    sx={{ flex: 1 }}
                  />
                  <Button onClick={findTickets} disabled={locked}>
                    Buscar
                  </Button>
                </Stack>
                {ticketError && (
                  <Alert severity="warning" data-testid="ticket-error">
                    <AlertTitle>{messages.ticketsTitle}</AlertTitle>
                    {ticketError}
                  </Alert>
                )}
                {tickets.length > 0 && (
                  <TextField
                    select
                    size="small"
                    label="Ticket"
                    value={watch("ticket_id") ?? ""}
                    onChange={(e) => {
                      const t = tickets.find((x) => x.id === e.target.value);
                      setValue("ticket_id", t?.id ?? null, { shouldDirty: true });
                      setValue("ticket_name", t?.name ?? null, { shouldDirty: true });
                    }}
                  >
                    {tickets.map((t) => (
                      <MenuItem key={t.id} value={t.id}>
                        {t.id} – {t.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
                {watch("ticket_id") && tickets.length === 0 && (
                  <TextField
                    size="small"
                    label="Ticket"
                    value={`${watch("ticket_id")} – ${watch("ticket_name") ?? ""}`}
                    disabled
                  />
                )}
              </Stack>
            )}
            {(actionType === "internal" || actionType === "rh") && (
              <TextField
                size="small"
                label="Cliente"
                value={settings.default_customer_name ?? "—"}
                disabled
                slotProps={{ input: { readOnly: true } }}
              />
            )}
            <Controller
              control={control}
              name="description"
              render={({ field }) => (
                <TextField
                  {...field}
                  value={actionType === "vacation" ? VACATION_DESCRIPTION : field.value}
                  label="Descripción"
                  multiline
                  minRows={2}
                  disabled={locked || actionType === "vacation"}
                  error={!!err("description")}
                  helperText={err("description")}
                />
              )}
            />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {target.mode === "edit" &&
          !locked &&
          (confirmDelete ? (
            <>
              <Box sx={{ mr: 1 }}>{messages.confirmDeleteActivity}</Box>
              <Button color="error" onClick={remove} disabled={saving}>
                Sí, eliminar
              </Button>
              <Button onClick={() => setConfirmDelete(false)}>No</Button>
            </>
          ) : (
            <Button color="error" onClick={() => setConfirmDelete(true)}>
              Eliminar
            </Button>
          ))}
        {target.mode === "edit" && target.activity && (
          <Button
            onClick={() =>
              props.onDuplicate(
                target.activity as Activity,
                new Date(target.activity!.begins_at),
                new Date(target.activity!.ends_at),
              )
            }
          >
            Duplicar
          </Button>
        )}
        <Box sx={{ flex: 1 }} />
        <Button onClick={props.onClose}>Cancelar</Button>
        {!locked && tab === 0 && (
          <Button type="submit" form="activity-form" variant="contained" disabled={saving}>
            Guardar
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
