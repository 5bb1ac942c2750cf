/** The demo firm: a small Mexican software and consulting company and its customers. Fictional. */

export const FIRM = {
  name: "Tláloc Sistemas y Consultoría",
  complete_name: "Tláloc Sistemas y Consultoría, S.A. de C.V.",
  client_code: "1000",
  email: "contacto@tlalocsistemas.mx",
};
/** The customer support activities may not use (SPEC §5). */
export const SUPPORT_EXCLUDED = {
  name: "Público en General",
  complete_name: "Público en General",
  client_code: "1026",
  email: null,
};

export const WORKSPACES = [
  { id: 10, name: "Desarrollo", is_notifiable: false },
  { id: 11, name: "Consultoría", is_notifiable: false },
  { id: 12, name: "Soporte", is_notifiable: true },
  { id: 13, name: "Administración", is_notifiable: false },
] as const;
export type WorkspaceName = (typeof WORKSPACES)[number]["name"];
/** SPEC §9 "default workspace id 10": Desarrollo gets that id. */
export const DEFAULT_WORKSPACE = "Desarrollo";

export const POSITIONS = [
  "Director General",
  "Gerente de Proyectos",
  "Líder Técnico",
  "Desarrollador Senior",
  "Desarrollador Junior",
  "Analista de Calidad",
  "Consultor Funcional",
  "Ingeniero de Soporte",
  "Administración y Finanzas",
] as const;
export type PositionName = (typeof POSITIONS)[number];

/** How an employee's days are usually spent: weights of the action types. */
export type Profile = "dev" | "consult" | "support" | "manager" | "office";

export interface EmployeeSeed {
  code: string;
  name: string;
  workspace: WorkspaceName;
  position: PositionName;
  profile: Profile;
  is_rape?: boolean;
  is_admin_group?: boolean;
  assignable?: boolean;
  inactive?: boolean;
  boss?: boolean;
  /**
   * Hours left unlogged in the week before the seed's: all of its last working day ("friday"), or the afternoon
   * of the one before ("thursday_afternoon"). The demo's Tuesday reminder and the bosses' digest then have
   * someone to write to.
   */
  shortLastWeek?: "thursday_afternoon" | "friday";
  /** One of the three demo accounts. */
  account?: {
    email: string;
    role: "administrator_role" | "operator_role" | "finance_role";
  };
}

export const EMPLOYEES: EmployeeSeed[] = [
  {
    code: "E001",
    name: "Alejandra Ramírez Torres",
    workspace: "Desarrollo",
    position: "Gerente de Proyectos",
    profile: "manager",
    is_rape: true,
    is_admin_group: true,
    boss: true,
    account: { email: "admin@sia.local", role: "administrator_role" },
  },
  {
    code: "E002",
    name: "Jorge Hernández Castillo",
    workspace: "Desarrollo",
    position: "Líder Técnico",
    profile: "dev",
    is_rape: true,
    account: { email: "operador@sia.local", role: "operator_role" },
  },
  {
    code: "E003",
    name: "Patricia Gómez Salinas",
    workspace: "Administración",
    position: "Administración y Finanzas",
    profile: "office",
    is_admin_group: true,
    account: { email: "finanzas@sia.local", role: "finance_role" },
  },
  {
    code: "E004",
    name: "Luis Fernando Martínez Ochoa",
    workspace: "Desarrollo",
    position: "Desarrollador Senior",
    profile: "dev",
    shortLastWeek: "thursday_afternoon",
  },
  {
    code: "E005",
    name: "Mariana López Villaseñor",
    workspace: "Desarrollo",
    position: "Desarrollador Senior",
    profile: "dev",
  },
  {
    code: "E006",
    name: "Diego Sánchez Aguilar",
    workspace: "Desarrollo",
    position: "Desarrollador Junior",
    profile: "dev",
  },
  {
    code: "E007",
    name: "Ximena Flores Cárdenas",
    workspace: "Desarrollo",
    position: "Analista de Calidad",
    profile: "dev",
  },
  {
    code: "E008",
    name: "Ricardo Morales Juárez",
    workspace: "Consultoría",
    position: "Gerente de Proyectos",
    profile: "manager",
    is_rape: true,
    boss: true,
  },
  {
    code: "E009",
    name: "Gabriela Cruz Mendoza",
    workspace: "Consultoría",
    position: "Consultor Funcional",
    profile: "consult",
    assignable: true,
  },
  {
    code: "E010",
    name: "Héctor Reyes Navarro",
    workspace: "Consultoría",
    position: "Consultor Funcional",
    profile: "consult",
    assignable: true,
    is_rape: true,
    shortLastWeek: "friday",
  },
  {
    code: "E011",
    name: "Fernanda Ortiz Domínguez",
    workspace: "Consultoría",
    position: "Consultor Funcional",
    profile: "consult",
    assignable: true,
  },
  {
    code: "E012",
    name: "Arturo Vázquez Estrada",
    workspace: "Soporte",
    position: "Líder Técnico",
    profile: "support",
    is_rape: true,
    boss: true,
  },
  {
    code: "E013",
    name: "Daniela Castro Ibarra",
    workspace: "Soporte",
    position: "Ingeniero de Soporte",
    profile: "support",
    assignable: true,
  },
  {
    code: "E014",
    name: "Eduardo Jiménez Rosales",
    workspace: "Soporte",
    position: "Ingeniero de Soporte",
    profile: "support",
    assignable: true,
  },
  {
    code: "E015",
    name: "Sofía Herrera Montoya",
    workspace: "Soporte",
    position: "Ingeniero de Soporte",
    profile: "support",
    assignable: true,
  },
  {
    code: "E016",
    name: "Miguel Ángel Gutiérrez Peña",
    workspace: "Desarrollo",
    position: "Desarrollador Junior",
    profile: "dev",
    inactive: true,
  },
  {
    code: "E017",
    name: "Valeria Mendoza Rincón",
    workspace: "Desarrollo",
    position: "Desarrollador Junior",
    profile: "dev",
  },
  {
    code: "E018",
    name: "Roberto Aguirre Campos",
    workspace: "Administración",
    position: "Director General",
    profile: "office",
    is_admin_group: true,
    boss: true,
  },
];

export const CLIENT_GROUPS = ["Gobierno", "Sector Financiero", "Industria y Manufactura", "Comercio y Servicios"] as const;
export type GroupName = (typeof CLIENT_GROUPS)[number];

export interface ProductSeed {
  code: string;
  name: string;
  category: string;
  selectable?: boolean;
  /** Employee code of the product owner. */
  owner?: string;
}
export const PRODUCTS: ProductSeed[] = [
  {
    code: "SCD",
    name: "Siglo CD",
    category: "Contabilidad gubernamental",
    owner: "E008",
  },
  {
    code: "SIA",
    name: "SIA",
    category: "Interno",
    selectable: false,
    owner: "E001",
  },
  {
    code: "FWK",
    name: "Framework",
    category: "Interno",
    selectable: false,
    owner: "E002",
  },
  {
    code: "SICAJAS",
    name: "SICAJAS",
    category: "Cajas de ahorro",
    selectable: false,
    owner: "E010",
  },
  {
    code: "NOM",
    name: "Nómina Integral",
    category: "Recursos humanos",
    owner: "E009",
  },
  {
    code: "CFDI",
    name: "Facturación Electrónica CFDI 4.0",
    category: "Facturación",
    owner: "E012",
  },
  {
    code: "INV",
    name: "Control de Inventarios",
    category: "Operaciones",
    owner: "E011",
  },
  {
    code: "PRV",
    name: "Portal de Proveedores",
    category: "Operaciones",
    owner: "E005",
  },
  {
    code: "PAT",
    name: "Control Patrimonial",
    category: "Contabilidad gubernamental",
    owner: "E010",
  },
  {
    code: "BI",
    name: "Tablero de Indicadores",
    category: "Inteligencia de negocios",
    owner: "E004",
  },
];

/** Products a client of each group usually has. */
export const GROUP_PRODUCTS: Record<GroupName, string[]> = {
  Gobierno: ["SCD", "PAT", "NOM", "BI"],
  "Sector Financiero": ["SICAJAS", "CFDI", "NOM", "BI"],
  "Industria y Manufactura": ["CFDI", "INV", "PRV", "NOM"],
  "Comercio y Servicios": ["CFDI", "NOM", "BI", "INV"],
};

export interface ClientSeed {
  name: string;
  complete_name: string;
  group: GroupName;
  domain: string;
}
export const CLIENTS: ClientSeed[] = [
  {
    name: "Municipio de Santa María del Oro",
    complete_name: "Municipio de Santa María del Oro",
    group: "Gobierno",
    domain: "santamariadeloro.gob.mx",
  },
  {
    name: "Junta Municipal de Agua de Tepatitlán",
    complete_name: "Junta Municipal de Agua Potable y Alcantarillado de Tepatitlán",
    group: "Gobierno",
    domain: "jumapat.gob.mx",
  },
  {
    name: "Universidad Tecnológica de la Sierra Gorda",
    complete_name: "Universidad Tecnológica de la Sierra Gorda",
    group: "Gobierno",
    domain: "utsg.edu.mx",
  },
  {
    name: "Instituto de Pensiones de Nayarit",
    complete_name: "Instituto de Pensiones del Estado de Nayarit",
    group: "Gobierno",
    domain: "ipen.gob.mx",
  },
  {
    name: "Municipio de Valle de Guadalupe",
    complete_name: "Municipio de Valle de Guadalupe",
    group: "Gobierno",
    domain: "valledeguadalupe.gob.mx",
  },
  {
    name: "Comisión Estatal del Deporte de Campeche",
    complete_name: "Comisión Estatal del Deporte de Campeche",
    group: "Gobierno",
    domain: "codecam.gob.mx",
  },
  {
    name: "Caja Solidaria Valle de Atemajac",
    complete_name: "Caja Solidaria Valle de Atemajac, S.C. de A.P. de R.L. de C.V.",
    group: "Sector Financiero",
    domain: "cajaatemajac.mx",
  },
  {
    name: "Financiera Rural del Bajío",
    complete_name: "Financiera Rural del Bajío, S.A. de C.V., SOFOM, E.N.R.",
    group: "Sector Financiero",
    domain: "finbajio.mx",
  },
  {
    name: "Unión de Crédito Agropecuario de Sonora",
    complete_name: "Unión de Crédito Agropecuario de Sonora, S.A. de C.V.",
    group: "Sector Financiero",
    domain: "ucasonora.mx",
  },
  {
    name: "Caja Popular San Rafael",
    complete_name: "Caja Popular San Rafael, S.C. de A.P. de R.L. de C.V.",
    group: "Sector Financiero",
    domain: "cajasanrafael.mx",
  },
  {
    name: "Arrendadora Centauro",
    complete_name: "Arrendadora Centauro, S.A. de C.V.",
    group: "Sector Financiero",
    domain: "arrendadoracentauro.mx",
  },
  {
    name: "Casa de Cambio Puerta del Sol",
    complete_name: "Casa de Cambio Puerta del Sol, S.A. de C.V.",
    group: "Sector Financiero",
    domain: "puertadelsol.mx",
  },
  {
    name: "Aceros Laminados del Norte",
    complete_name: "Aceros Laminados del Norte, S.A. de C.V.",
    group: "Industria y Manufactura",
    domain: "alnorte.com.mx",
  },
  {
    name: "Grupo Industrial Cerro Prieto",
    complete_name: "Grupo Industrial Cerro Prieto, S.A.P.I. de C.V.",
    group: "Industria y Manufactura",
    domain: "gicerroprieto.com.mx",
  },
  {
    name: "Plásticos y Moldes de Querétaro",
    complete_name: "Plásticos y Moldes de Querétaro, S.A. de C.V.",
    group: "Industria y Manufactura",
    domain: "plamoq.com.mx",
  },
  {
    name: "Embotelladora Río Bravo",
    complete_name: "Embotelladora Río Bravo, S.A. de C.V.",
    group: "Industria y Manufactura",
    domain: "embriobravo.com.mx",
  },
  {
    name: "Textiles Finos de Puebla",
    complete_name: "Textiles Finos de Puebla, S.A. de C.V.",
    group: "Industria y Manufactura",
    domain: "textilesfinos.mx",
  },
  {
    name: "Autopartes Ensenada",
    complete_name: "Autopartes Ensenada, S. de R.L. de C.V.",
    group: "Industria y Manufactura",
    domain: "autopartesensenada.mx",
  },
  {
    name: "Cementos del Istmo",
    complete_name: "Cementos del Istmo, S.A. de C.V.",
    group: "Industria y Manufactura",
    domain: "cementosistmo.com.mx",
  },
  {
    name: "Farmacias Santa Rosalía",
    complete_name: "Farmacias Santa Rosalía, S.A. de C.V.",
    group: "Comercio y Servicios",
    domain: "farmaciasantarosalia.mx",
  },
  {
    name: "Hospital Santa Clara del Mar",
    complete_name: "Servicios Hospitalarios Santa Clara del Mar, S.A. de C.V.",
    group: "Comercio y Servicios",
    domain: "hsantaclara.mx",
  },
  {
    name: "Transportes Logísticos Anáhuac",
    complete_name: "Transportes Logísticos Anáhuac, S.A. de C.V.",
    group: "Comercio y Servicios",
    domain: "tlanahuac.com.mx",
  },
  {
    name: "Hoteles Costa Esmeralda",
    complete_name: "Operadora Hotelera Costa Esmeralda, S.A. de C.V.",
    group: "Comercio y Servicios",
    domain: "costaesmeralda.mx",
  },
  {
    name: "Distribuidora Ferretera Sinaloense",
    complete_name: "Distribuidora Ferretera Sinaloense, S.A. de C.V.",
    group: "Comercio y Servicios",
    domain: "dfsinaloense.mx",
  },
  {
    name: "Colegio Hispano Americano de Oaxaca",
    complete_name: "Colegio Hispano Americano de Oaxaca, A.C.",
    group: "Comercio y Servicios",
    domain: "chao.edu.mx",
  },
];
/** Clients (by index in CLIENTS) that came from an approved quotation. */
export const CONVERTED_CLIENTS = [5, 22];

export const PROSPECTS = [
  "Municipio de Ixtlán del Río",
  "Caja de Ahorro Magisterial de Durango",
  "Grupo Constructor Las Palmas",
  "Clínica Médica del Valle de Toluca",
  "Agroindustrias La Huasteca",
  "Instituto Municipal de Vivienda de León",
  "Comercializadora Maya de Mérida",
  "Despacho Contable Salazar y Asociados",
];

export const PROJECT_TYPES = [
  { id: 1, name: "Desarrollo a la medida", color_tag: "#1565c0" },
  { id: 2, name: "Consultoría", color_tag: "#6a1b9a" },
  { id: 3, name: "Soporte extendido", color_tag: "#ef6c00" },
  { id: 4, name: "Capacitación", color_tag: "#2e7d32" },
  { id: 5, name: "Migración de datos", color_tag: "#00838f" },
  /** SPEC §9: quotation-approved projects get project type 6. */
  { id: 6, name: "Implementación", color_tag: "#c62828" },
  { id: 7, name: "Mantenimiento", color_tag: "#5d4037" },
];

export const COLOR_TAGS = ["#1565c0", "#2e7d32", "#c62828", "#6a1b9a", "#ef6c00", "#00838f", "#ad1457", "#5d4037", "#f9a825"];

/** Project names by type id; {product} is replaced. */
export const PROJECT_NAMES: Record<number, string[]> = {
  1: [
    "Módulo de viáticos",
    "Interfaz bancaria de pagos",
    "Portal de transparencia",
    "Aplicación móvil de cobranza",
    "Conector con el SAT",
  ],
  2: ["Diagnóstico de procesos contables", "Reingeniería del proceso de compras", "Asesoría en armonización contable"],
  3: ["Póliza de soporte extendido {product}", "Soporte en cierre anual {product}"],
  4: ["Capacitación a usuarios de {product}", "Curso de administración de {product}"],
  5: ["Migración de saldos iniciales a {product}", "Migración de catálogos a {product}"],
  6: ["Implementación de {product}"],
  7: ["Actualización de versión de {product}", "Mantenimiento correctivo de {product}"],
};

export const FEATURES = [
  "pólizas contables",
  "conciliación bancaria",
  "timbrado de nómina",
  "control presupuestal",
  "cuentas por pagar",
  "reportes de la Cuenta Pública",
  "catálogo de proveedores",
  "inventario de activos",
  "complementos de pago",
  "cálculo de ISR",
  "tablero de cobranza",
  "órdenes de compra",
  "requisiciones",
  "flujo de autorizaciones",
  "cierre de mes",
  "bitácora de cambios",
  "layout de dispersión",
  "estado de cuenta",
];

export const SUPPORT_ISSUES = [
  "Error al timbrar CFDI de nómina",
  "No cuadra la balanza de comprobación",
  "Usuario bloqueado en el sistema",
  "Reporte de Cuenta Pública sin datos",
  "Falla al importar el layout bancario",
  "Actualización del certificado de sello digital",
  "Lentitud al generar pólizas",
  "Duda sobre cancelación de facturas",
  "Configuración de nuevo ejercicio fiscal",
  "Error en cálculo de finiquito",
  "Respaldo y restauración de base de datos",
  "Alta de cuentas contables",
  "Complemento de pago rechazado por el PAC",
  "Ajuste de permisos de usuarios",
];

export const INTERNAL_DESCRIPTIONS = [
  "Junta semanal de seguimiento",
  "Revisión de código del equipo",
  "Actualización de documentación interna",
  "Configuración del ambiente de desarrollo",
  "Capacitación interna en PostgreSQL",
  "Capacitación interna en TypeScript",
  "Preparación del reporte mensual de horas",
  "Mantenimiento del servidor de pruebas",
  "Planeación trimestral del área",
  "Revisión de indicadores del área",
];

export const RH_DESCRIPTIONS = [
  "Entrevista a candidato para desarrollador",
  "Evaluación de desempeño trimestral",
  "Curso de inducción de personal",
  "Trámites de nómina y prestaciones",
  "Plática de la Comisión de Seguridad e Higiene",
  "Integración del expediente del personal",
];

export const QUOTE_DESCRIPTIONS = [
  "Demostración de {product} a {owner}",
  "Elaboración de propuesta económica de {product} para {owner}",
  "Levantamiento de necesidades con {owner}",
  "Seguimiento comercial de {product} con {owner}",
];

/** Project activity descriptions by activity type code. */
export const PROJECT_DESCRIPTIONS: Record<string, string[]> = {
  PY: ["Planeación del sprint de {feature}", "Estimación de tiempos de {feature}"],
  AN: ["Análisis de requerimientos de {feature}", "Levantamiento de reglas de negocio de {feature}"],
  DE: ["Desarrollo del módulo de {feature}", "Corrección de incidencias en {feature}", "Desarrollo de reportes de {feature}"],
  PR: ["Pruebas integrales de {feature}", "Pruebas de regresión de {feature}"],
  CE: ["Capacitación a usuarios de {client} en {feature}"],
  IM: ["Implementación en sitio: configuración de {feature}", "Puesta en producción de {feature}"],
  DC: ["Documentación técnica de {feature}", "Manual de usuario de {feature}"],
  EO: ["Entrega de objetos a producción: {feature}"],
};
