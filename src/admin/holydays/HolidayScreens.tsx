import { zodResolver } from "@hookform/resolvers/zod";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import { Button } from "@mui/material";
import { useState } from "react";
import { DeleteButton, TextField, TextInput, useCanAccess, useTranslate } from "react-admin";
import { holydaySchema } from "../../core/schemas/holyday";
import { SiaDateField } from "../common/DateField";
import { DatePickerInput } from "../common/DatePickerInput";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaList } from "../common/screens";
import { HolidayImportDialog } from "./HolidayImportDialog";

const resolver = zodResolver(holydaySchema as never);
const filters = [<SearchFilter key="q" source="q" alwaysOn placeholder="sia.holydays.search" />];

function ImportButton() {
  const { canAccess } = useCanAccess({ resource: "holydays", action: "import" });
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!canAccess) return null;
  return (
    <>
      <Button size="small" startIcon={<UploadFileIcon />} onClick={() => setOpen(true)}>
        {translate("sia.holydays.import_csv")}
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
    <SiaList filters={filters} sort={{ field: "date", order: "ASC" }} rowClick={false} actions={<ImportButton />}>
      <SiaDateField source="date" />
      <TextField source="name" emptyText="—" />
      <RowDelete />
    </SiaList>
  );
}

export function HolidayCreate() {
  return (
    <SiaCreate resolver={resolver} then="list">
      <DatePickerInput source="date" fullWidth={false} />
      <TextInput source="name" fullWidth />
    </SiaCreate>
  );
}

/** The screens, loaded on demand (src/admin/holydays/index.ts declares the resource). */
export const screens = {
  list: HolidayList,
  create: HolidayCreate,
};
