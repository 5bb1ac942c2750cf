/** The activities modal's glossary tab: title formats (SPEC §5) and the 12 activity-type codes (SPEC §9). */
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { ACTIVITY_TYPES } from "../core/constants";

export const TITLE_FORMATS = [
  { code: "P", format: "P|código de proyecto|tipo|descripción", meaning: "Proyecto" },
  { code: "S", format: "S|cliente|producto|tipo|descripción", meaning: "Soporte" },
  { code: "PC", format: "PC|cliente o prospecto|producto|descripción", meaning: "Preventa (cotización)" },
  { code: "AS", format: "AS|tipo|descripción", meaning: "Actividad interna" },
  { code: "RH", format: "RH|descripción", meaning: "Recursos humanos" },
] as const;

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
