import { zodResolver } from "@hookform/resolvers/zod";
import RequestQuoteIcon from "@mui/icons-material/RequestQuote";
import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Link as MuiLink, Typography } from "@mui/material";
import { useState } from "react";
import {
  Form,
  FunctionField,
  HttpError,
  SimpleShowLayout,
  TextField,
  TextInput,
  useCanAccess,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
} from "react-admin";
import { type FieldValues, type Resolver, useFormState } from "react-hook-form";
import { Link } from "react-router-dom";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { prospectConversionSchema, prospectSchema } from "../../core/schemas/prospect";
import type { SiaDataProvider } from "../../dataProvider";
import { SimilarClientConfirm } from "../clients/SimilarClientConfirm";
import { SiaDateField } from "../common/DateField";
import { DriveFolderInput } from "../common/DriveFolderInput";
import { DriveFolderField } from "../common/DriveFolderLink";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";

const resolver = zodResolver(prospectSchema as never);
const conversionResolver = zodResolver(prospectConversionSchema as never) as Resolver<FieldValues, unknown, FieldValues>;

const filters = [<SearchFilter key="q" source="q" alwaysOn placeholder="sia.prospects.search" />];

type ProspectRecord = {
  id: number;
  name?: string;
  client_id?: number | null;
  client_name?: string | null;
  open_quotations?: number;
};

/** A won prospect's client, as a link (the prospect is that client now). */
function WonClient({ record }: { record: ProspectRecord }) {
  if (!record.client_id) return null;
  return (
    <MuiLink component={Link} to={screenPath("clients", "show", record.client_id)} onClick={(e) => e.stopPropagation()}>
      {record.client_name}
    </MuiLink>
  );
}

export function ProspectList() {
  return (
    <SiaList filters={filters} sort={{ field: "name", order: "ASC" }}>
      <TextField source="id" />
      <TextField source="name" />
      <FunctionField source="client_name" render={(r: ProspectRecord) => (r.client_id ? <WonClient record={r} /> : "—")} />
      <DriveFolderField source="drive_root_url" />
      <SiaDateField source="created_at" showTime />
    </SiaList>
  );
}

function ProspectInputs() {
  return (
    <>
      <TextInput source="name" fullWidth />
      <DriveFolderInput helperText="sia.prospects.folder_help" />
    </>
  );
}

export function ProspectCreate() {
  return (
    <SiaCreate resolver={resolver}>
      <ProspectInputs />
    </SiaCreate>
  );
}

export function ProspectEdit() {
  return (
    <SiaEdit resolver={resolver}>
      <ProspectInputs />
    </SiaEdit>
  );
}

function ConvertActions({ onClose }: { onClose: () => void }) {
  const { isSubmitting } = useFormState();
  const translate = useTranslate();
  return (
    <DialogActions>
      <Button onClick={onClose} disabled={isSubmitting}>
        {translate("sia.common.cancel")}
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting}>
        {translate("sia.prospects.convert_submit")}
      </Button>
    </DialogActions>
  );
}

/**
 * "Convertir a cliente" (SPEC §4): the client's folder is picked in the drive (required), the prospect's
 * folders move into it, the client is saved and the prospect deleted; then the new client opens.
 */
function ConvertDialog({ prospect, onClose }: { prospect: ProspectRecord; onClose: () => void }) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  const submit = async (values: Record<string, unknown>) => {
    try {
      const { client, warning } = await dataProvider.convertProspectToClient(prospect.id, values);
      // The warning travels in the same toast: the client exists, the old folder stayed in the drive.
      notify(warning ? `${messages.clientCreated}. ${warning}` : messages.clientCreated, {
        type: warning ? "warning" : "success",
      });
      onClose();
      redirect(screenPath("clients", "show", client.id));
      return undefined;
    } catch (error) {
      const fields =
        error instanceof HttpError ? (error.body as { errors?: Record<string, string> } | undefined)?.errors : undefined;
      if (fields) return fields; // shown on the fields (and toasted per field by the data layer)
      notify((error as Error).message, { type: "error" });
      return undefined;
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="convert-title">
      <DialogTitle id="convert-title">{translate("sia.prospects.convert")}</DialogTitle>
      {/* Its own record: the prospect's CV_ folder is not the client's folder; the user picks one. */}
      <Form resolver={conversionResolver} record={{ id: prospect.id, name: prospect.name ?? "" }} onSubmit={submit} noValidate>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate("sia.prospects.convert_intro")}
          </Typography>
          {(prospect.open_quotations ?? 0) > 0 && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {translate("sia.prospects.open_quotations", { smart_count: prospect.open_quotations })}
            </Alert>
          )}
          <TextInput source="name" resource="clients" fullWidth />
          <DriveFolderInput label="sia.prospects.client_folder" />
          <SimilarClientConfirm />
        </DialogContent>
        <ConvertActions onClose={onClose} />
      </Form>
    </Dialog>
  );
}

function ConvertToClientButton() {
  const record = useRecordContext<ProspectRecord>();
  const { canAccess } = useCanAccess({ resource: "prospects", action: "transition", record });
  const [open, setOpen] = useState(false);
  const translate = useTranslate();
  // A won prospect is a client already: nothing to convert.
  if (!record || !canAccess || record.client_id) return null;
  return (
    <>
      <Button size="small" startIcon={<SwapHorizIcon />} onClick={() => setOpen(true)}>
        {translate("sia.prospects.convert")}
      </Button>
      {open && <ConvertDialog prospect={record} onClose={() => setOpen(false)} />}
    </>
  );
}

/** A new quotation for this prospect (react-admin presets the form from `?source=`). */
function NewQuotationLink() {
  const record = useRecordContext<{ id: number }>();
  const { canAccess } = useCanAccess({ resource: "quotations", action: "create" });
  const translate = useTranslate();
  if (!record || !canAccess) return null;
  const to = `${screenPath("quotations", "create")}?source=${encodeURIComponent(JSON.stringify({ prospect_id: record.id }))}`;
  return (
    <Button component={Link} to={to} size="small" startIcon={<RequestQuoteIcon />}>
      {translate("sia.prospects.new_quotation")}
    </Button>
  );
}

/** A won prospect says so and leads to its client. */
function WonBanner() {
  const record = useRecordContext<ProspectRecord>();
  const translate = useTranslate();
  if (!record?.client_id) return null;
  return (
    <Alert
      severity="success"
      sx={{ mx: 2, mt: 2 }}
      action={
        <Button component={Link} to={screenPath("clients", "show", record.client_id)} size="small">
          {translate("sia.prospects.see_client")}
        </Button>
      }
    >
      {translate("sia.prospects.won", { name: record.client_name })}
    </Alert>
  );
}

export function ProspectShow() {
  return (
    <SiaShow
      editable={(record) => !record.client_id}
      actions={
        <>
          <NewQuotationLink />
          <ConvertToClientButton />
        </>
      }
    >
      <WonBanner />
      <SimpleShowLayout>
        <TextField source="name" />
        <DriveFolderField source="drive_root_url" />
        <SiaDateField source="created_at" showTime />
      </SimpleShowLayout>
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/prospects/index.ts declares the resource). */
export const screens = {
  list: ProspectList,
  create: ProspectCreate,
  edit: ProspectEdit,
  show: ProspectShow,
};
