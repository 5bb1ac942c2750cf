/**
 * The fields of each action type, as ACTION_PARTS (src/core/schemas/activity.ts) lists them — the same
 * parts the import's titles carry: a current project and its activity type; a client, one of that
 * client's products, an activity type and a ticket; a client or prospect and a product; an activity type
 * for internal work; the default customer shown for internal and RH.
 */
import { MenuItem, TextField } from "@mui/material";
import { useTranslate } from "react-admin";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { ACTION_PARTS } from "../../../core/schemas/activity";
import { AsyncPicker, type PickerOption } from "./AsyncPicker";
import { fieldKey } from "./labels";
import { TicketSearch } from "./TicketSearch";
import type { ActivityFormValues, AppSettingsLite } from "./types";
import { type ProductChoice, useActivityTypes, useProducts, useProjectState, useSearches } from "./useChoices";

/** What the pickers show for the chosen ids (the ids themselves are form values). */
export interface PickedLabels {
  project: PickerOption | null;
  owner: PickerOption | null;
  product: PickerOption | null;
}

export function TypeFields(props: {
  disabled: boolean;
  settings: AppSettingsLite;
  labels: PickedLabels;
  onLabels(change: Partial<PickedLabels>): void;
}) {
  const { disabled, settings, labels, onLabels } = props;
  const translate = useTranslate();
  const { control, setValue, formState } = useFormContext<ActivityFormValues>();
  const [actionType, ownerId, ownerType, projectId] = useWatch({
    control,
    name: ["action_type", "ownerable_id", "ownerable_type", "project_id"],
  });
  const parts = ACTION_PARTS[actionType] ?? {};
  const searches = useSearches(settings.support_excluded_customer_id);
  const types = useActivityTypes();
  // Support: the client's own catalogue; preventa: the whole catalogue (a prospect has none).
  const clientId = parts.owner === "client" && ownerType !== "Prospect" ? ownerId : null;
  const { products } = useProducts(clientId, parts.owner === "client_or_prospect");
  const projectState = useProjectState(parts.project ? projectId : null);
  const err = (name: keyof ActivityFormValues) => formState.errors[name]?.message as string | undefined;
  const label = (field: string) => translate(fieldKey(field));

  // An activity's product that is no longer in the list (older data) stays visible as chosen.
  const productChoices: ProductChoice[] =
    labels.product && !products.some((p) => p.id === labels.product?.id)
      ? [{ id: labels.product.id, name: labels.product.label }, ...products]
      : products;

  return (
    <>
      {parts.project && (
        <AsyncPicker
          label={label("project_id")}
          testId="project-picker"
          value={labels.project}
          search={searches.projects}
          disabled={disabled}
          error={err("project_id")}
          helperText={
            (labels.project?.detail ?? projectState)
              ? translate("sia.activity_form.project_state", { state: labels.project?.detail ?? projectState })
              : undefined
          }
          onChange={(o) => {
            onLabels({ project: o });
            setValue("project_id", o?.id ?? null, { shouldDirty: true });
          }}
        />
      )}
      {parts.owner && (
        <AsyncPicker
          label={label(parts.owner === "client" ? "client_id" : "ownerable_id")}
          testId="owner-picker"
          value={labels.owner}
          search={parts.owner === "client" ? searches.clients : searches.owners}
          disabled={disabled}
          error={err("ownerable_id") ?? err("ownerable_type")}
          onChange={(o) => {
            onLabels({ owner: o, ...(parts.owner === "client" ? { product: null } : {}) });
            setValue("ownerable_id", o?.id ?? null, { shouldDirty: true });
            setValue("ownerable_type", (o?.kind as "Client" | "Prospect" | undefined) ?? null, { shouldDirty: true });
            // Another client has another catalogue.
            if (parts.owner === "client") setValue("product_catalog_id", null, { shouldDirty: true });
          }}
        />
      )}
      {parts.product && (
        <Controller
          control={control}
          name="product_catalog_id"
          render={({ field }) => (
            <TextField
              select
              size="small"
              label={label("product_catalog_id")}
              disabled={disabled || (parts.owner === "client" && !clientId)}
              value={field.value ?? ""}
              onChange={(e) => {
                const id = e.target.value === "" ? null : Number(e.target.value);
                const chosen = productChoices.find((p) => p.id === id);
                onLabels({ product: chosen ? { id: chosen.id, label: chosen.name } : null });
                field.onChange(id);
              }}
              error={!!err("product_catalog_id")}
              helperText={err("product_catalog_id")}
              slotProps={{ htmlInput: { "data-testid": "product-select" } }}
            >
              {productChoices.map((p) => (
                <MenuItem key={p.id} value={p.id}>
                  {p.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {parts.activityType && (
        <Controller
          control={control}
          name="activity_type_catalog_id"
          render={({ field }) => (
            <TextField
              select
              size="small"
              label={label("activity_type_catalog_id")}
              required={parts.activityType === "required"}
              disabled={disabled}
              value={field.value ?? ""}
              onChange={(e) => field.onChange(e.target.value === "" ? null : Number(e.target.value))}
              error={!!err("activity_type_catalog_id")}
              helperText={err("activity_type_catalog_id")}
            >
              {parts.activityType === "optional" && (
                <MenuItem value="">
                  <em>—</em>
                </MenuItem>
              )}
              {types.map((t) => (
                <MenuItem key={t.id} value={t.id}>
                  {t.code} – {t.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {parts.ticket && <TicketSearch disabled={disabled} />}
      {parts.defaultCustomer && (
        <TextField
          size="small"
          label={label("default_customer")}
          value={settings.default_customer_name ?? "—"}
          disabled
          slotProps={{ input: { readOnly: true } }}
        />
      )}
    </>
  );
}
