/** The activity dialog's glossary tab: title formats (SPEC §5) and the 12 activity-type codes (SPEC §9). */
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { ACTIVITY_TYPES } from "../../../core/constants";
import { TITLE_SHAPES } from "../../../core/eventTitle";

/** The title shapes come from the import's own grammar (src/core/eventTitle.ts), so the two never disagree. */
export const TITLE_FORMATS = (
  [
    ["P", "Proyecto"],
    ["S", "Soporte"],
    ["PC", "Preventa (cotización)"],
    ["AS", "Actividad interna"],
    ["RH", "Recursos humanos"],
  ] as const
).map(([code, meaning]) => ({ code, format: TITLE_SHAPES[code], meaning }));

export function Glossary() {
  return (
    <div data-testid="glossary">
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        Formatos del título
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>Código</TableCell>
            <TableCell>Formato</TableCell>
            <TableCell>Significado</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {TITLE_FORMATS.map((f) => (
            <TableRow key={f.code}>
              <TableCell>{f.code}</TableCell>
              <TableCell sx={{ fontFamily: "monospace" }}>{f.format}</TableCell>
              <TableCell>{f.meaning}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Tipos de actividad
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>#</TableCell>
            <TableCell>Código</TableCell>
            <TableCell>Nombre</TableCell>
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
