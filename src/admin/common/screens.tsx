/**
 * The frames every resource's screens share, so a resource declares only what is its own (columns,
 * inputs, fields): lists of 10 with the pager window and the spec's paths, forms that save and go to the
 * record's detail with a Spanish toast, edit toolbars, and detail screens that send a missing record to /404.
 */

import { type Theme, useMediaQuery } from "@mui/material";
import { Children, isValidElement, type ReactElement, type ReactNode, useMemo, useState } from "react";
import {
  Confirm,
  Create,
  type CreateProps,
  Datagrid,
  type DatagridProps,
  DeleteButton,
  Edit,
  type EditProps,
  FilterButton,
  List,
  type ListProps,
  type RaRecord,
  type RedirectionSideEffect,
  SaveButton,
  Show,
  type ShowProps,
  SimpleForm,
  setSubmissionErrors,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRedirect,
  useResourceContext,
  useSaveContext,
  useTranslate,
} from "react-admin";
import { type FieldValues, type Resolver, useFormContext } from "react-hook-form";
import { messages } from "../../core/messages";
import { type ScreenKind, screenPath } from "../../core/resources";
import { CsvDownloadButton } from "./CsvDownloadButton";
import { coreColumns } from "./columns";
import { isRefusedParams, type ListDefaults, ListRecovery } from "./ListRecovery";
import { CreateLink, EditLink, showRowClick, withRowLink } from "./links";
import { PhoneRows } from "./PhoneRows";
import { recordError } from "./RecordError";
import { SiaPagination } from "./SiaPagination";
import { StaleVersionNotice, useStaleVersion } from "./StaleVersion";

/**
 * Where a save leads: one of the record's screens at its SPEC §2 path, a path of its own (screens nested
 * under another record's), or nowhere (a single settings form stays put).
 */
export type SavedThen = ScreenKind | ((record: RaRecord) => string) | false;

/** After a save: the Spanish toast, then where `then` leads (the record's detail by default). */
export function useSavedThen(message: string = messages.saved, then: SavedThen = "show") {
  const notify = useNotify();
  const redirect = useRedirect();
  const resource = useResourceContext() as string;
  return {
    onSuccess: (data: RaRecord) => {
      notify(message, { type: "success" });
      if (then === false) return;
      redirect(typeof then === "function" ? then(data) : screenPath(resource, then, data.id));
    },
  };
}

interface SiaListProps extends Omit<ListProps, "children" | "actions"> {
  children: ReactNode;
  /** Offer the server's CSV of the current list. */
  csv?: boolean;
  /** The CSV button's label, when not react-admin's «Exportar». */
  csvLabel?: string;
  /** Offer the Create link (a nested list brings its own). */
  creatable?: boolean;
  /** Extra buttons in the list's toolbar. */
  actions?: ReactNode;
  rowClick?: DatagridProps["rowClick"];
  /** What the table says when it has no rows (with `empty={false}`, the list keeps its toolbar). */
  emptyRows?: ReactNode;
}

/** Whether some filter is not `alwaysOn`: those are reached through the «Agregar filtro» button. */
const hasTogglableFilters = (filters: ListProps["filters"]) =>
  Children.toArray(Array.isArray(filters) ? filters : isValidElement(filters) ? [filters] : []).some(
    (filter) => isValidElement(filter) && !(filter.props as { alwaysOn?: boolean }).alwaysOn,
  );

/**
 * A list of 10 rows with the pager window, the filter button (when some filter is not always shown), the
 * Create link and the CSV (each shown when the matrix grants it), and rows that open the record's detail
 * (a click anywhere on the row, or the link its name column becomes: withRowLink in links.tsx).
 * Its columns sort as src/core/columns.ts declares (common/columns.ts).
 */
export function SiaList({
  children,
  csv,
  csvLabel,
  creatable = true,
  actions,
  rowClick = showRowClick,
  emptyRows,
  ...props
}: SiaListProps) {
  const notify = useNotify();
  const resource = useResourceContext(props) as string;
  const perPage = props.perPage ?? 10;
  const sortField = props.sort?.field ?? "id";
  const sortOrder = props.sort?.order ?? "ASC";
  const filterDefaults = JSON.stringify(props.filterDefaultValues ?? {});
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  const defaults = useMemo<ListDefaults>(
    () => ({ sort: { field: sortField, order: sortOrder }, filter: JSON.parse(filterDefaults), perPage }),
    [sortField, sortOrder, filterDefaults, perPage],
  );
  return (
    <List
      perPage={10}
      pagination={<SiaPagination />}
      // A refused sort, filter or page is dropped and told once by ListRecovery, not toasted on every read.
      queryOptions={{
        onError: (error: unknown) => {
          if (!isRefusedParams(error)) notify((error as Error)?.message || "ra.notification.http_error", { type: "error" });
        },
      }}
      actions={
        <TopToolbar>
          {hasTogglableFilters(props.filters) && <FilterButton />}
          {creatable && <CreateLink />}
          {csv && <CsvDownloadButton label={csvLabel} />}
          {actions}
        </TopToolbar>
      }
      {...props}
    >
      <ListRecovery defaults={defaults} />
      {phone ? (
        // The cards take the same declared columns as the table: their labels too (not react-admin's
        // English guess from the source, «Client group name»).
        <PhoneRows rowClick={rowClick} empty={emptyRows}>
          {coreColumns(resource, children)}
        </PhoneRows>
      ) : (
        <Datagrid rowClick={rowClick} bulkActionButtons={false} empty={emptyRows}>
          {withRowLink(coreColumns(resource, children), rowClick)}
        </Datagrid>
      )}
    </List>
  );
}

interface FormScreenProps {
  children: ReactNode;
  // zodResolver over a schema whose output differs from the form values: any resolver fits.
  resolver?: Resolver<FieldValues, any, any>;
  defaultValues?: Record<string, unknown>;
  message?: string;
  transform?: CreateProps["transform"];
  /** Where a save leads: the record's detail (default) or, for catalogues without one, the list. */
  then?: SavedThen;
  /** How a refused save is told, when the resource explains errors its own way. */
  onError?: (error: unknown) => void;
}

export function SiaCreate({
  children,
  resolver,
  defaultValues,
  message,
  transform,
  then,
  onError,
  ...props
}: FormScreenProps & Omit<CreateProps, "children">) {
  return (
    <Create transform={transform} mutationOptions={{ ...useSavedThen(message, then), onError }} {...props}>
      {/* noValidate: the browser's own checks speak the browser's language; SIA's schema speaks Spanish. */}
      <SimpleForm resolver={resolver} defaultValues={defaultValues} noValidate>
        {children}
      </SimpleForm>
    </Create>
  );
}

/** Whether the record may be deleted: always, never, or as the record says (a final invoice stays). */
type Deletable = boolean | ((record: RaRecord) => boolean);

interface EditToolbarProps {
  deletable?: Deletable;
  /** Where a deletion leads, when not react-admin's list path. */
  deleteRedirect?: RedirectionSideEffect;
}

/** The Delete button, unless the record may not be deleted. */
function RecordDeleteButton({ deletable = true, deleteRedirect = "list" }: EditToolbarProps) {
  const record = useRecordContext();
  if (!deletable || (typeof deletable === "function" && (!record || !deletable(record)))) return null;
  return <DeleteButton mutationMode="pessimistic" redirect={deleteRedirect} />;
}

/** Save, and delete (refused in Spanish by the server while others reference the record). */
export function EditToolbar(props: EditToolbarProps) {
  return (
    <Toolbar sx={{ justifyContent: "space-between" }}>
      <SaveButton />
      <RecordDeleteButton {...props} />
    </Toolbar>
  );
}

/**
 * Edit a record at the version it was read: the save carries it, and a stale save (another user saved
 * first) keeps what the user typed and shows what changed (StaleVersion.tsx).
 */
export function SiaEdit({
  children,
  resolver,
  message,
  transform,
  deletable = true,
  deleteRedirect,
  readOnly = false,
  then,
  onError,
  mutationOptions,
  confirm,
  ...props
}: FormScreenProps &
  EditToolbarProps & {
    /** Shown to who may read but not change it: the form disabled, no toolbar. */
    readOnly?: boolean;
    /** A question asked before saving certain values (an administrator dropping her own role). */
    confirm?: ConfirmSave;
  } & Omit<EditProps, "children">) {
  const saved = useSavedThen(message, then);
  const stale = useStaleVersion((mutationOptions?.onError as ((error: unknown) => void) | undefined) ?? onError);
  return (
    <Edit
      error={recordError}
      mutationMode="pessimistic"
      transform={stale.withVersion(transform)}
      mutationOptions={{ ...saved, ...mutationOptions, onError: stale.onError }}
      {...props}
    >
      <EditForm
        confirm={confirm}
        resolver={resolver}
        noValidate
        disabled={readOnly}
        toolbar={readOnly ? false : <EditToolbar deletable={deletable} deleteRedirect={deleteRedirect} />}
      >
        <StaleVersionNotice state={stale.state} />
        {children}
      </EditForm>
    </Edit>
  );
}

/** The texts (catalogue keys) of a confirmation asked before a save. */
export interface SaveConfirmationTexts {
  title: string;
  content: string;
  confirm: string;
}
/** Asks before saving these values over this record (its texts), or lets the save go (null). */
export type ConfirmSave = (values: FieldValues, record: RaRecord | undefined) => SaveConfirmationTexts | null;

/**
 * The edit form, with the save asked first when `confirm` says so: by the Save button and by Enter alike
 * (both submit the form). Refusals of the confirmed save land on the fields as any save's do.
 */
function EditForm({
  confirm,
  children,
  ...props
}: { confirm?: ConfirmSave; children: ReactNode } & Parameters<typeof SimpleForm>[0]) {
  const saveContext = useSaveContext();
  const record = useRecordContext();
  const [pending, setPending] = useState<{ values: FieldValues; texts: SaveConfirmationTexts } | null>(null);
  const onSubmit = confirm
    ? (values: FieldValues) => {
        const texts = confirm(values, record);
        if (!texts) return saveContext.save?.(values);
        setPending({ values, texts });
      }
    : undefined;
  return (
    <SimpleForm onSubmit={onSubmit} {...props}>
      {children}
      {pending && <SaveConfirmation pending={pending} onDone={() => setPending(null)} />}
    </SimpleForm>
  );
}

function SaveConfirmation({
  pending,
  onDone,
}: {
  pending: { values: FieldValues; texts: SaveConfirmationTexts };
  onDone: () => void;
}) {
  const saveContext = useSaveContext();
  const { setError } = useFormContext();
  const translate = useTranslate();
  return (
    <Confirm
      isOpen
      title={translate(pending.texts.title)}
      content={translate(pending.texts.content)}
      confirm={pending.texts.confirm}
      onConfirm={async () => {
        onDone();
        const errors = await saveContext.save?.(pending.values);
        if (errors) setSubmissionErrors(errors, setError);
      }}
      onClose={onDone}
    />
  );
}

/** The Edit link, unless the record says it is read-only (a final state, say). */
function RecordEditLink({
  editable,
  editPath,
}: {
  editable?: (record: RaRecord) => boolean;
  editPath?: (record: RaRecord) => string;
}) {
  const record = useRecordContext();
  if (editable && (!record || !editable(record))) return null;
  return <EditLink to={record && editPath ? editPath(record) : undefined} />;
}

/**
 * A record's detail with its Edit link (shown when the matrix allows it and, with `editable`, when the
 * record itself may still change).
 */
export function SiaShow({
  children,
  actions,
  editable,
  editPath,
  ...props
}: {
  children: ReactElement | ReactElement[];
  actions?: ReactNode;
  editable?: (record: RaRecord) => boolean;
  /** Where the Edit link leads, for a screen nested under another record's (a project's invoices). */
  editPath?: (record: RaRecord) => string;
} & Omit<ShowProps, "children">) {
  return (
    <Show
      error={recordError}
      actions={
        <TopToolbar>
          <RecordEditLink editable={editable} editPath={editPath} />
          {actions}
        </TopToolbar>
      }
      {...props}
    >
      {children}
    </Show>
  );
}
