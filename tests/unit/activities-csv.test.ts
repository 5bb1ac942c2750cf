/**
 * The week's CSV import reader (server/modules/calendar_imports/csv.ts) on the files people really send:
 * Excel in Spanish (';', Windows-1252, CRLF, dd/mm/aaaa, 12-hour times 'a. m.'), the UTF-8 template with
 * its BOM, quoted cells with separators and line breaks; every bad line refused as «Línea N: campo: motivo».
 * The bytes go through the reader pool's worker function (decoding, records within ACTIVITY_CSV_LIMITS) as the route's do.
 */
import { describe, expect, it } from "vitest";
import {
  ACTIVITY_CSV_DELIMITERS,
  ACTIVITY_CSV_LIMITS,
  CSV_MAX_CELL,
  CSV_MAX_ROWS,
  parseActivitiesCsv,
} from "../../server/modules/calendar_imports/csv";
import { answerCsv } from "../../server/ports/calendar/icsWorker";
import { ACTIVITY_CSV_COLUMNS } from "../../src/core/schemas/activity";
import { weekOf } from "../../src/core/week";
import { underLoad } from "../support/timing";

const WEEK = weekOf("2031-03-17");
const HEADER = ACTIVITY_CSV_COLUMNS;

/** A Windows-1252 file (every character used here is in Latin-1, one byte each). */
const cp1252 = (text: string) => Buffer.from(text, "latin1");
const utf8Bom = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]);
/** What the reader pool's worker answers for these bytes (the same function, on this thread), then the parse. */
const parse = (bytes: Buffer) => {
  const answer = answerCsv({ kind: "csv", id: 1, bytes, delimiters: ACTIVITY_CSV_DELIMITERS, limits: ACTIVITY_CSV_LIMITS });
  if (!answer.ok) throw new Error(answer.message);
  return parseActivitiesCsv(answer.csv, WEEK);
};
const excel = (rows: string[]) => `${[HEADER.join(";"), ...rows].join("\r\n")}\r\n`;

describe("parseActivitiesCsv: Excel in Spanish", () => {
  const rows = [
    "17/03/2031;09:00 a. m.;11:00 a. m.;P;;PRY-ICS;;DE;;Reunión de diseño",
    "17/03/2031;12:30 p. m.;1:45 p. m.;AS;;;;AN;;Revisión con Ñoño, año nuevo",
    "18/3/2031;9:00 p.m.;11:00 p.m.;RH;;;;;;Capacitación",
    "19/03/2031;9:00 AM;10:00 am;RH;;;;;;Inglés",
    "20/03/2031;12:00 a. m.;1:00 a. m.;RH;;;;;;Guardia",
    "21/03/2031;23:00;12:00 a. m.;RH;;;;;;Cierre del día",
    "21/03/2031;08:00:00;09:30:00;RH;;;;;;Con segundos",
    '21/03/2031;10:00;11:00;AS;;;;AN;;"Notas; dos partes\r\ny otra línea"',
    "",
    "",
  ];

  it.each([
    ["Windows-1252", cp1252(excel(rows))],
    ["UTF-8 with BOM", utf8Bom(excel(rows))],
    ["UTF-8 without BOM, LF", Buffer.from(excel(rows).replace(/\r\n/g, "\n"), "utf8")],
  ])("reads every row right (%s)", (_name, bytes) => {
    const { rows: read, errors } = parse(bytes);
    expect(errors).toEqual([]);
    // A line break inside a quoted cell is kept as the file wrote it.
    const description = (text: string) => text.replace(/\r\n/g, "\n");
    expect(read.map((r) => [r.line, r.date, r.from, r.to, description(r.row.descripcion)])).toEqual([
      [2, "2031-03-17", 9 * 60, 11 * 60, "Reunión de diseño"],
      [3, "2031-03-17", 12 * 60 + 30, 13 * 60 + 45, "Revisión con Ñoño, año nuevo"],
      [4, "2031-03-18", 21 * 60, 23 * 60, "Capacitación"],
      [5, "2031-03-19", 9 * 60, 10 * 60, "Inglés"],
      [6, "2031-03-20", 0, 60, "Guardia"],
      [7, "2031-03-21", 23 * 60, 24 * 60, "Cierre del día"],
      [8, "2031-03-21", 8 * 60, 9 * 60 + 30, "Con segundos"],
      [9, "2031-03-21", 10 * 60, 11 * 60, "Notas; dos partes\ny otra línea"],
    ]);
    expect(read[0].row).toMatchObject({ tipo: "P", codigo_proyecto: "PRY-ICS", tipo_actividad: "DE" });
  });

  it("reads the non-breaking spaces Excel writes in 'a. m.', and a tab-separated file", () => {
    const nbsp = excel(["17/03/2031;9:00\u00a0a.\u00a0m.;10:00\u202fp.\u202fm.;RH;;;;;;Con espacios duros"]);
    expect(parse(Buffer.from(nbsp, "utf8")).rows[0]).toMatchObject({ from: 9 * 60, to: 22 * 60 });
    const tabs = `${HEADER.join("\t")}\r\n2031-03-17\t09:00\t10:00\tRH\t\t\t\t\t\tSeparado, con tabuladores\r\n`;
    expect(parse(cp1252(tabs)).rows[0].row.descripcion).toBe("Separado, con tabuladores");
  });

  it("reads Excel's «Texto Unicode» (UTF-16 LE with its mark, tab-separated)", () => {
    const text = `${HEADER.join("\t")}\r\n17/03/2031\t9:00 a. m.\t10:00 a. m.\tRH\t\t\t\t\t\tReunión añual\r\n`;
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    expect(parse(bytes).rows.map((r) => [r.from, r.to, r.row.descripcion])).toEqual([[9 * 60, 10 * 60, "Reunión añual"]]);
  });

  it("refuses each bad line with its number, the field and the reason; nothing else is read", () => {
    const bad = excel([
      "17/03/2031;09:00;10:00;RH;;;;;;Bien",
      "17/03/2031;09:00;10:00;RH;;;;",
      "31/02/2031;09:00;10:00;RH;;;;;;Fecha imposible",
      "17/03/2031;11:00;10:00;RH;;;;;;Fin antes del inicio",
      "17/03/2031;23:00;24:30;RH;;;;;;Pasada la medianoche",
      "17/03/2031;13:00 p. m.;9:00:30;RH;;;;;;Horas mal",
      "17/03/2031;12:00 a. m.;00:00;RH;;;;;;Medianoche a medianoche",
      "17/03/2031;09:00;10:00;RH;;;;;;Revisión;=2+3",
      "24/03/2031;09:00;10:00;RH;;;;;;Otra semana",
    ]);
    const { rows, errors } = parse(cp1252(bad));
    // Midnight to midnight has no length: read, and imported as an invalid event (tests/api/import-times).
    expect(rows.map((r) => r.line)).toEqual([2, 8]);
    expect(errors).toEqual([
      "Línea 3: tiene 8 celdas y el encabezado 10; revise el separador y las comillas",
      "Línea 4: fecha «31/02/2031»: no es una fecha válida (AAAA-MM-DD o DD/MM/AAAA)",
      "Línea 5: la hora de fin debe ser posterior a la de inicio",
      "Línea 6: hora_fin «24:30»: no es una hora válida (de 00:00 a 24:00, HH:MM o como 9:00 a. m.)",
      "Línea 7: hora_inicio «13:00 p. m.»: no es una hora válida (de 00:00 a 24:00, HH:MM o como 9:00 a. m.); " +
        "hora_fin «9:00:30»: no es una hora válida (de 00:00 a 24:00, HH:MM o como 9:00 a. m.)",
      "Línea 9: tiene 11 celdas y el encabezado 10; revise el separador y las comillas",
      "Línea 10: la fecha está fuera de la semana del 17/03/2031 al 23/03/2031",
    ]);
  });

  it.each([
    [
      "too few cells",
      "17/03/2031;09:00;10:00;RH",
      "Línea 2: tiene 4 celdas y el encabezado 10; revise el separador y las comillas",
    ],
    [
      "a bad date",
      "31/02/2031;09:00;10:00;RH;;;;;;x",
      "Línea 2: fecha «31/02/2031»: no es una fecha válida (AAAA-MM-DD o DD/MM/AAAA)",
    ],
    ["a bad type", "17/03/2031;09:00;10:00;XX;;;;;;x", "Línea 2: tipo «XX»: debe ser P, S, PC, AS, RH o V"],
    [
      "another week",
      "24/03/2031;09:00;10:00;RH;;;;;;x",
      "Línea 2: la fecha está fuera de la semana del 17/03/2031 al 23/03/2031",
    ],
  ])("the first row's fault (%s) is named with the others', by its line", (_name, first, error) => {
    for (const bytes of [
      cp1252(excel([first, "17/03/2031;11:00;10:00;RH;;;;;;Al revés", "17/03/2031;12:00;13:00;RH;;;;;;Bien"])),
      utf8Bom(excel([first, "17/03/2031;11:00;10:00;RH;;;;;;Al revés", "17/03/2031;12:00;13:00;RH;;;;;;Bien"])),
    ]) {
      expect(parse(bytes).errors).toEqual([error, "Línea 3: la hora de fin debe ser posterior a la de inicio"]);
    }
  });

  it("a quote that never closes is refused at its line", () => {
    const { errors } = parse(
      cp1252(excel(["17/03/2031;09:00;10:00;RH;;;;;;Bien", '17/03/2031;09:00;10:00;RH;;;;;;"Sin cerrar'])),
    );
    expect(errors).toEqual(["Línea 3: una comilla abre una celda y no se cierra"]);
  });

  it("a header without the template's columns names them", () => {
    expect(parse(cp1252("fecha;descripción\r\n17/03/2031;x\r\n")).errors).toEqual([
      "Faltan columnas en el encabezado: hora_inicio, hora_fin, tipo, cliente_o_prospecto, codigo_proyecto, producto, tipo_actividad, ticket, descripcion",
    ]);
  });
});

describe("parseActivitiesCsv: hostile files", () => {
  it("more rows than a week can save: one Spanish error, quickly", () => {
    const line = "17/03/2031;09:00;10:00;RH;;;;;;x";
    const huge = `${HEADER.join(";")}\r\n${`${line}\r\n`.repeat(300_000)}`;
    const started = performance.now();
    const { rows, errors } = parse(Buffer.from(huge, "latin1"));
    expect(performance.now() - started).toBeLessThan(underLoad(1000));
    expect(rows).toEqual([]);
    expect(errors).toEqual([
      `El archivo tiene más de ${CSV_MAX_ROWS} actividades; una semana se importa con ${CSV_MAX_ROWS} como máximo`,
    ]);
  });

  it("exactly the most rows a week can save is read; trailing blank lines do not count", () => {
    const line = "17/03/2031;09:00;10:00;RH;;;;;;x";
    const full = `${HEADER.join(";")}\r\n${`${line}\r\n`.repeat(CSV_MAX_ROWS)}${"\r\n".repeat(1000)}`;
    const { rows, errors } = parse(Buffer.from(full, "latin1"));
    expect(errors).toEqual([]);
    expect(rows).toHaveLength(CSV_MAX_ROWS);
  });

  it("a giant cell is refused by its column, quickly", () => {
    const giant = excel([`17/03/2031;09:00;10:00;RH;;;;;;${"a".repeat(5_000_000)}`]);
    const started = performance.now();
    const { errors } = parse(Buffer.from(giant, "latin1"));
    expect(performance.now() - started).toBeLessThan(underLoad(1000));
    expect(errors).toEqual([`Línea 2: descripcion: es demasiado largo (máximo ${CSV_MAX_CELL} caracteres)`]);
  });
});
