import { describe, expect, it } from "vitest";
import { VACATION_DESCRIPTION } from "../../src/core/constants";
import { indexLookups, normalizeKey, parseTitle, resolveTitle, type TitleLookups } from "../../src/core/eventTitle";

const lookups: TitleLookups = {
  clients: [
    { id: 1, code: "1001", name: "Cañada Logística" },
    { id: 2, code: "1002", name: "Grupo Éxito" },
    { id: 29, code: "1029", name: "Cliente Excluido" },
    { id: 30, code: "1030", name: "Sa" },
  ],
  prospects: [{ id: 7, name: "Prospecto Médico" }],
  projects: [
    { id: 10, code: "PRY-001", name: "Portal Único", clientId: 1, clientName: "Cañada Logística", productId: 100 },
    { id: 11, code: "ACT-22", name: "Migración", clientId: 2, clientName: "Grupo Éxito", productId: 101 },
  ],
  products: [
    { id: 100, code: "TIM", name: "Timbrado" },
    { id: 101, code: "NOM", name: "Nómina Electrónica" },
  ],
  activityTypes: [
    { id: 2, code: "AN" },
    { id: 3, code: "DE" },
    { id: 8, code: "ST" },
  ],
  supportExcludedClientId: 29,
};
const index = indexLookups(lookups);
const resolve = (title: string) => resolveTitle(parseTitle(title, lookups), index);

type Row = [
  title: string,
  expected: {
    format: string;
    actionType: string;
    valid: boolean;
    ids?: Partial<Record<"projectId" | "clientId" | "productId" | "activityTypeCatalogId", number | null>>;
    ownerableType?: "Client" | "Prospect" | null;
    description?: string;
    error?: RegExp;
  },
];

describe("calendar-event titles (SPEC §5)", () => {
  const table: Row[] = [
    // P|project code|type|description
    [
      "P|PRY-001|DE|Pantalla de alta",
      {
        format: "P",
        actionType: "project",
        valid: true,
        ids: { projectId: 10, clientId: 1, productId: 100, activityTypeCatalogId: 3 },
        ownerableType: "Client",
        description: "Pantalla de alta",
      },
    ],
    ["p | pry-001 | de | minúsculas y espacios", { format: "P", actionType: "project", valid: true, ids: { projectId: 10 } }],
    [
      "P|Portal único|AN|por nombre, sin acento en el título",
      { format: "P", actionType: "project", valid: true, ids: { projectId: 10, activityTypeCatalogId: 2 } },
    ],
    [
      "P|PRY-404|DE|Proyecto que no existe",
      { format: "P", actionType: "project", valid: false, error: /No se encontró el proyecto «PRY-404»/ },
    ],
    ["P|PRY-001|XX|Tipo desconocido", { format: "P", actionType: "project", valid: false, error: /tipo de actividad «XX»/ }],
    ["P|PRY-001|DE|", { format: "P", actionType: "project", valid: false, error: /Falta la descripción/ }],
    ["P||DE|Sin proyecto", { format: "P", actionType: "project", valid: false, error: /Falta el código de proyecto/ }],
    ["P|PRY-001|Solo tres partes", { format: "P", actionType: "internal", valid: false, error: /necesita 4 partes/ }],
    ["P|PRY-001|DE|Cinco|partes", { format: "P", actionType: "internal", valid: false, error: /y tiene 5/ }],
    // S|client|product|type|description
    [
      "S|Cañada Logística|Timbrado|ST|Revisión de timbres",
      {
        format: "S",
        actionType: "support",
        valid: true,
        ids: { clientId: 1, productId: 100, activityTypeCatalogId: 8 },
        ownerableType: "Client",
      },
    ],
    [
      "S|CANADA LOGISTICA|tim|st|sin acentos y por código de producto",
      { format: "S", actionType: "support", valid: true, ids: { clientId: 1, productId: 100 } },
    ],
    [
      "S|1002|NOMINA ELECTRONICA|ST|por código de cliente",
      { format: "S", actionType: "support", valid: true, ids: { clientId: 2, productId: 101 } },
    ],
    [
      "S|Cliente Excluido|Timbrado|ST|Excluido",
      { format: "S", actionType: "support", valid: false, error: /no puede usarse en actividades de soporte/ },
    ],
    [
      "S|Nadie|Timbrado|ST|Cliente desconocido",
      { format: "S", actionType: "support", valid: false, error: /No se encontró el cliente «Nadie»/ },
    ],
    [
      "S|Cañada Logística|SIA|ST|Producto no elegible",
      { format: "S", actionType: "support", valid: false, error: /producto «SIA»/ },
    ],
    ["S|Cañada Logística|Timbrado|Sin tipo", { format: "S", actionType: "internal", valid: false, error: /necesita 5 partes/ }],
    // PC|client or prospect|product|description
    [
      "PC|Prospecto Medico|Timbrado|Demo del producto",
      { format: "PC", actionType: "quote", valid: true, ids: { clientId: 7, productId: 100 }, ownerableType: "Prospect" },
    ],
    [
      "PC|Grupo Exito|NOM|Cotización a cliente",
      { format: "PC", actionType: "quote", valid: true, ids: { clientId: 2, productId: 101 }, ownerableType: "Client" },
    ],
    ["PC|Desconocido|NOM|Demo", { format: "PC", actionType: "quote", valid: false, error: /cliente o prospecto «Desconocido»/ }],
    ["PC|Grupo Exito||Demo", { format: "PC", actionType: "quote", valid: false, error: /Falta el producto/ }],
    ["PC|Grupo Exito|Demo", { format: "PC", actionType: "internal", valid: false, error: /necesita 4 partes/ }],
    // AS|type|description: needs the abbreviation and the description
    ["AS|AN|Junta de planeación", { format: "AS", actionType: "internal", valid: true, ids: { activityTypeCatalogId: 2 } }],
    // The type is optional for internal and support work, as in the activity form; an unknown one is red.
    ["AS||Junta sin tipo", { format: "AS", actionType: "internal", valid: true }],
    ["AS|ZZ|Junta con tipo desconocido", { format: "AS", actionType: "internal", valid: false, error: /ZZ/ }],
    ["S|Cañada Logística|Timbrado||Soporte sin tipo", { format: "S", actionType: "support", valid: true }],
    ["AS|AN|", { format: "AS", actionType: "internal", valid: false, error: /Falta la descripción/ }],
    ["AS|Junta", { format: "AS", actionType: "internal", valid: false, error: /necesita 3 partes/ }],
    // RH|description
    ["RH|Curso de inducción", { format: "RH", actionType: "rh", valid: true, description: "Curso de inducción" }],
    ["rh|", { format: "RH", actionType: "rh", valid: false, error: /Falta la descripción/ }],
    ["RH|Curso|extra", { format: "RH", actionType: "internal", valid: false, error: /necesita 2 partes/ }],
    // vacation
    ["Vacaciones", { format: "vacation", actionType: "vacation", valid: true, description: VACATION_DESCRIPTION }],
    ["Incapacidad por gripa", { format: "vacation", actionType: "vacation", valid: true, description: VACATION_DESCRIPTION }],
    ["VACACIÓN de verano", { format: "vacation", actionType: "vacation", valid: true }],
    // generic parser: a project code or a client name inside free text
    [
      "Revisión de avances ACT-22 con el equipo",
      {
        format: "generic",
        actionType: "project",
        valid: false,
        ids: { projectId: 11, clientId: 2 },
        error: /falta el tipo de actividad/,
      },
    ],
    [
      "Llamada con grupo exito sobre timbres",
      { format: "generic", actionType: "support", valid: false, ids: { clientId: 2 }, error: /falta el producto/ },
    ],
    ["Comida", { format: "generic", actionType: "internal", valid: false, description: "Comida", error: /formato reconocido/ }],
    ["XY|algo|raro", { format: "generic", actionType: "internal", valid: false, error: /formato reconocido/ }],
    ["   ", { format: "untitled", actionType: "internal", valid: false, error: /no tiene título/ }],
  ];

  it.each(table)("%s", (title, expected) => {
    const parsed = parseTitle(title, lookups);
    expect(parsed.format).toBe(expected.format);
    const resolved = resolveTitle(parsed, index);
    expect(resolved.actionType).toBe(expected.actionType);
    expect(resolved.isValidate).toBe(expected.valid);
    if (expected.valid) expect(resolved.errors).toEqual([]);
    else expect(resolved.errors.length).toBeGreaterThan(0);
    if (expected.ids)
      for (const [key, value] of Object.entries(expected.ids)) expect(resolved[key as "projectId"], key).toBe(value);
    if (expected.ownerableType !== undefined) expect(resolved.ownerableType).toBe(expected.ownerableType);
    if (expected.description) expect(resolved.description).toBe(expected.description);
    if (expected.error) expect(resolved.errors.join(" | ")).toMatch(expected.error);
  });

  it("a code word does not match inside another word; very short names are not searched in free text", () => {
    expect(resolve("ACT-220 no es ACT-22x").actionType).toBe("internal");
    expect(resolve("Junta con SA de CV").actionType).toBe("internal");
    expect(resolve("S|Sa|Timbrado|ST|Por nombre corto sí").clientId).toBe(30);
  });

  it("normalises case, accents and spaces", () => {
    expect(normalizeKey("  Análisis   CLÍNICO ñ ")).toBe("analisis clinico n");
  });

  it("the parser needs no lookups to classify coded titles", () => {
    expect(parseTitle("P|X|DE|d")).toMatchObject({ format: "P", project: "X", typeCode: "DE", description: "d" });
    expect(parseTitle("S|c|p|ST|d")).toMatchObject({ format: "S", owner: "c", product: "p", typeCode: "ST" });
    expect(parseTitle("PC|c|p|d")).toMatchObject({ format: "PC", owner: "c", product: "p" });
    expect(parseTitle("Junta").actionType).toBe("internal");
  });
});
