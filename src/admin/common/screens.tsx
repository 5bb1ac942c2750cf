/**
 * The frames every resource's screens share, so a resource declares only what is its own (columns,
 * inputs, fields): lists of 10 with the pager window and the spec's paths, forms that save and go to the
 * record's detail with a Spanish toast, edit toolbars, and detail screens that send a missing record to /404.
 */
import { Children, isValidElement, type ReactElement, type ReactNode } from "react";
import {
  Create,
  type CreateProps,
  Datagrid,
  DeleteButton,
  Edit,
  type EditProps,
  FilterButton,
  List,
  type ListProps,
  type RaRecord,
  SaveButton,
  Show,
  type ShowProps,
  SimpleForm,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRedirect,
  useResourceContext,
} from "react-admin";
import type { FieldValues, Resolver } from "react-hook-form";
import { messages } from "../../core/messages";
import { type ScreenKind, screenPath } from "../../core/resources";
import { CsvDownloadButton } from "./CsvDownloadButton";
import { CreateLink, EditLink, showRowClick } from "./links";
import { recordError } from "./RecordError";
import { SiaPagination } from "./SiaPagination";
import { StaleVersionNotice, useStaleVersion } from "./StaleVersion";

/** After a save: the Spanish toast, then the record's screen at its SPEC §2 path. */
export function useSavedThen(message: string = messages.saved, kind: ScreenKind = "show") {
  const notify = useNotify();
  const redirect = useRedirect();
  const resource = useResourceContext() as string;
  return {
    onSuccess: (data: { id: number | string }) => {
      notify(message, { type: "success" });
      redirect(screenPath(resource, kind, data.id));
    },
  };
}

interface SiaListProps extends Omit<ListProps, "children" | "actions"> {
  children: ReactNode;
  /** Offer the server's CSV of the current list. */
  csv?: boolean;
  /** Extra buttons in the list's toolbar. */
  actions?: ReactNode;
  rowClick?: false | typeof showRowClick;
}

/** Whether some filter is not `alwaysOn`: those are reached through the «Agregar filtro» button. */
const hasTogglableFilters = (filters: ListProps["filters"]) =>
  Children.toArray(Array.isArray(filters) ? filters : isValidElement(filters) ? [filters] : []).some(
    (filter) => isValidElement(filter) && !(filter.props as { alwaysOn?: boolean }).alwaysOn,
  );

/**
 * A list of 10 rows with the pager window, the filter button (when some filter is not always shown), the
 * Create link and the CSV (each shown when the matrix grants it), and rows that open the record's detail.
 */
export function SiaList({ children, csv, actions, rowClick = showRowClick, ...props }: SiaListProps) {
  return (
    <List
      perPage={10}
      pagination={<SiaPagination />}
      actions={
        <TopToolbar>
          {hasTogglableFilters(props.filters) && <FilterButton />}
          <CreateLink />
          {csv && <CsvDownloadButton />}
          {actions}
        </TopToolbar>
      }
      {...props}
    >
      <Datagrid rowClick={rowClick} bulkActionButtons={false}>
        {children}
      </Datagrid>
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
  then?: ScreenKind;
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
      <SimpleForm resolver={resolver} defaultValues={defaultValues}>
        {children}
      </SimpleForm>
    </Create>
  );
}

/** Save, and delete (refused in Spanish by the server while others reference the record). */
export function EditToolbar({ deletable = true }: { deletable?: boolean }) {
  return (
    <Toolbar sx={{ justifyContent: "space-between" }}>
      <SaveButton />
      {deletable && <DeleteButton mutationMode="pessimistic" redirect="list" />}
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
  then,
  onError,
  mutationOptions,
  ...props
}: FormScreenProps & { deletable?: boolean } & Omit<EditProps, "children">) {
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
      <SimpleForm resolver={resolver} toolbar={<EditToolbar deletable={deletable} />}>
        <StaleVersionNotice state={stale.state} />
        {children}
      </SimpleForm>
    </Edit>
  );
}

/** The Edit link, unless the record says it is read-only (a final state, say). */
function RecordEditLink({ editable }: { editable?: (record: RaRecord) => boolean }) {
  const record = useRecordContext();
  if (editable && (!record || !editable(record))) return null;
  return <EditLink />;
}

/**
 * A record's detail with its Edit link (shown when the matrix allows it and, with `editable`, when the
 * record itself may still change).
 */
export function SiaShow({
  children,
  actions,
  editable,
  ...props
}: {
  children: ReactElement | ReactElement[];
  actions?: ReactNode;
  editable?: (record: RaRecord) => boolean;
} & Omit<ShowProps, "children">) {
  return (
    <Show
      error={recordError}
      actions={
        <TopToolbar>
          <RecordEditLink editable={editable} />
          {actions}
        </TopToolbar>
      }
      {...props}
    >
      {children}
    </Show>
  );
}
