import EventBusyIcon from "@mui/icons-material/EventBusy";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@mui/material";
import { useState } from "react";
import {
  Create,
  Datagrid,
  DateField,
  DateInput,
  DeleteButton,
  List,
  SearchInput,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  useCanAccess,
  useNotify,
  useRedirect,
} from "react-admin";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { holydaySchema } from "../../core/schemas/holyday";
import { CreateLink } from "../common/links";
import { SiaPagination } from "../common/SiaPagination";
import { HolidayImportDialog } from "./HolidayImportDialog";

const resolver = zodResolver(holydaySchema as never);
/** Dates are calendar days (YYYY-MM-DD): shown in UTC so Mexico's offset never moves them a day back. */
const longDate = { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" } as const;
const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Buscar por descripción" />];

function ImportButton() {
  const { canAccess } = useCanAccess({ resource: "holydays", action: "import" });
  const [open, setOpen] = useState(false);
  if (!canAccess) return null;
  return (
    <>
      <Button size="small" startIcon={<UploadFileIcon />} onClick={() => setOpen(true)}>
        Importar CSV
      </Button>
      <HolidayImportDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function RowDelete() {
  const { canAccess } = useCanAccess({ resource: "holydays", action: "delete" });
  if (!canAccess) return null;
  return <DeleteButton mutationMode="pessimistic" redirect={false} />;
}

export function HolidayList() {
  return (
    <List
      filters={filters}
      perPage={10}
      sort={{ field: "date", order: "ASC" }}
      pagination={<SiaPagination />}
      actions={
        <TopToolbar>
          <CreateLink />
          <ImportButton />
        </TopToolbar>
      }
    >
      <Datagrid rowClick={false} bulkActionButtons={false}>
        <DateField source="date" locales="es-MX" options={longDate} />
        <TextField source="name" emptyText="—" />
        <RowDelete />
      </Datagrid>
    </List>
  );
}

export function HolidayCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      mutationOptions={{
        onSuccess: () => {
          notify(messages.saved, { type: "success" });
          redirect(screenPath("holydays", "list"));
        },
      }}
    >
      <SimpleForm resolver={resolver}>
        <DateInput source="date" />
        <TextInput source="name" fullWidth />
      </SimpleForm>
    </Create>
  );
}

export const holydays = {
  list: HolidayList,
  create: HolidayCreate,
  icon: EventBusyIcon,
  recordRepresentation: "date",
};
