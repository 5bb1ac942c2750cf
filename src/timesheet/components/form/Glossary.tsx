/** The activity dialog's glossary tab: title formats (SPEC §5) and the 12 activity-type codes (SPEC §9). */
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useTranslate } from "react-admin";
import { ACTIVITY_TYPES } from "../../../core/constants";
import { TITLE_SHAPES } from "../../../core/eventTitle";

/** The title shapes come from the import's own grammar (src/core/eventTitle.ts), so the two never disagree. */
export const TITLE_FORMATS = (["P", "S", "PC", "AS", "RH"] as const).map((code) => ({
  code,
  format: TITLE_SHAPES[code],
  meaning: `sia.glossary.kinds.${code}`,
}));

export function Glossary() {
  const translate = useTranslate();
  return (
    <div data-testid="glossary">
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {translate("sia.glossary.title_formats")}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate("sia.glossary.code")}</TableCell>
            <TableCell>{translate("sia.glossary.format")}</TableCell>
            <TableCell>{translate("sia.glossary.meaning")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {TITLE_FORMATS.map((f) => (
            <TableRow key={f.code}>
              <TableCell>{f.code}</TableCell>
              <TableCell sx={{ fontFamily: "monospace" }}>{f.format}</TableCell>
              <TableCell>{translate(f.meaning)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        {translate("sia.glossary.activity_types")}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>#</TableCell>
            <TableCell>{translate("sia.glossary.code")}</TableCell>
            <TableCell>{translate("sia.glossary.name")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {ACTIVITY_TYPES.map((t) => (
            <TableRow key={t.id}>
              <TableCell>{t.id}</TableCell>
              <TableCell>{t.code}</TableCell>
              <TableCell>{t.name}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
