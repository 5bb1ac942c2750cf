/**
 * The product's own Spanish texts (SPEC §8 wording, with the original's obvious typos corrected).
 * Server errors and browser toasts both read from here, so a message exists once.
 */
/** 'YYYY-MM-DD' (or an ISO instant) → 'DD/MM/YYYY': a date shown to a person is never written the ISO way. */
export const dmy = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
/** A count with its noun in the right number: «1 proyecto», «2 proyectos», «0 proyectos». */
export const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const messages = {
  unexpected: "Hubo un error inesperado. Favor de contactar al administrador del sistema",
  databaseUnavailable: "La base de datos no está disponible; intente de nuevo en unos momentos.",
  unauthenticated: "Sin Autenticación",
  forbidden: "Error de Permisos",
  notFound: "No se encontró el registro solicitado",
  routeNotFound: "La ruta solicitada no existe",
  paramError: (field: string) => `Error en los parametros ${field}`,
  invalidCredentials: "Credenciales Invalidas",
  ssoNotConfigured: "El inicio de sesión con proveedor de identidad no está configurado",
  ssoUnavailable: "No se pudo contactar al proveedor de identidad. Intente de nuevo más tarde.",
  tooManyAttempts: "Demasiados intentos de inicio de sesión. Espere unos minutos e intente de nuevo.",
  originRejected: "Origen de la solicitud no permitido",
  bodyTooLarge: "La solicitud es demasiado grande",
  badRequest: "La solicitud no es válida",
  requestTooLong: "La dirección o los encabezados de la solicitud son demasiado largos",
  requestTimeout: "La solicitud tardó demasiado en llegar; intente de nuevo",
  invalidJson: "El cuerpo de la solicitud no es un JSON válido",
  unsupportedMediaType: "Tipo de contenido no soportado",
  noEmployee: "Favor de ponerse en contacto con RH para que lo den de alta como empleado",
  required: "es obligatorio",
  invalidEmail: "no es un correo válido",
  invalidValue: "no es válido",
  nestedTooDeep: (max: number) => `tiene más de ${max} niveles anidados`,
  alreadyTaken: "ya está en uso",
  tooLong: (max: number) => `es demasiado largo (máximo ${max} caracteres)`,
  tooShort: (min: number) => `es demasiado corto (mínimo ${min} caracteres)`,
  mustBeNumber: "debe ser un número",
  mustBePositive: "debe ser mayor o igual a cero",
  dailyHoursRange: "debe estar entre 0 y 24 horas",
  dailyHoursQuarter: "debe ir en cuartos de hora (p. ej. 7.5 o 7.25)",
  invalidReference: "no existe",
  invalidDate: "no es una fecha válida",
  dateOutOfRange: "no es una fecha válida: debe estar entre 1900 y 2100",
  passwordMismatch: "no coincide con la contraseña",
  clientCreated: "Cliente Creado",
  clientUpdated: "Cliente Actualizado",
  clientGroupSaved: "Grupo de Cliente",
  holydaysImported: (imported: number, skipped: number) =>
    `${imported === 1 ? "Se importó" : "Se importaron"} ${counted(imported, "día festivo", "días festivos")}${
      skipped ? `; ${skipped} ${skipped === 1 ? "ya estaba registrado" : "ya estaban registrados"}` : ""
    }`,
  clientFolderRequired: "Favor de seleccionar una ruta para el cliente",
  driveUrlInvalid: "Favor de verificar la ruta del proyecto.",
  deleteRefused: (what: string) => `No se puede eliminar: ${what}`,
  clientInUse: "el cliente tiene proyectos, actividades, licencias o asignaciones registradas",
  inUse: "otros registros dependen de él",
  duplicateProduct: "El producto está repetido en el cliente",
  saved: "Elemento guardado",
  staleVersion: "Otro usuario guardó este registro mientras usted lo editaba. Revise los cambios y vuelva a guardar.",
  invalidVersion: "La versión del registro no es válida: vuelva a abrirlo y guarde de nuevo.",
  staleVersionRetry:
    "Otro usuario cambió este registro mientras tenía abierto este diálogo. Ya se muestra lo que guardó; lo que usted escribió sigue aquí. Revise y confirme de nuevo para aplicar su cambio sobre el suyo.",
  staleVersionReread:
    "Otro usuario cambió este registro antes que usted. Ya se muestra lo que guardó; si aún quiere cambiarlo, hágalo de nuevo.",
  versionRequired: "Falta la versión del registro (lock_version o If-Match); vuelva a cargarlo antes de guardar.",
  deleted: "Elemento eliminado",
  // people
  passwordRequired: "es obligatoria",
  passwordOnlyOwnAzureToken: "Solo puede modificar su propio token de Azure",
  userHasEmployee: "el usuario tiene un empleado vinculado",
  userAlreadyLinked: "ya está vinculado a otro empleado",
  inactiveEmployeeLink: "no se puede vincular un usuario a un empleado inactivo",
  publicPassword: "es la contraseña pública de la demostración; elija otra",
  ownEmployeeDeactivation: "No puede dar de baja ni desvincular su propio empleado: pídaselo a otro administrador",
  workspaceHasEmployees: (n: number) => `el espacio de trabajo tiene ${counted(n, "empleado", "empleados")}`,
  workspaceIsDefault: "es el espacio de trabajo predeterminado de la aplicación",
  duplicateBoss: "El empleado está repetido en los jefes del espacio de trabajo",
  positionInUse: (employees: number, hours: number) =>
    `el puesto se usa en ${counted(employees, "empleado", "empleados")} y ${counted(hours, "hora estimada", "horas estimadas")}`,
  clientProductsMissing: "Se tienen que configurar los productos del cliente",
  productNotOfClient: "no es un producto configurado del cliente",
  employeeNotAssignable: "el empleado no es asignable",
  employeeInactive: "el empleado no está activo",
  endBeforeStart: "debe ser igual o posterior a la fecha de inicio",
  dateAlreadyReached: "ya no se puede modificar porque la fecha ya se alcanzó",
  somethingFailed: "Ocurrió un error",
  unknownError: "Error desconocido",
  userSaved: "Usuario guardado",
  azureTokenSaved: "Token de Azure guardado",
  cloudTokenSaved: "Token del calendario guardado",
  // catalogs
  fillAllFields: "Rellene todos los campos",
  mustBeGreaterThanZero: "debe ser mayor a cero",
  mustBeWholeNumber: "debe ser un número entero",
  invalidUrl: "no es una URL válida (debe empezar con http:// o https://)",
  invalidColor: "debe ser un color con el formato #RRGGBB",
  invalidActivityCode: "debe tener de 2 a 4 letras mayúsculas",
  invalidRfc: "no es un RFC válido",
  invalidLicenseType: "debe ser rent, concurrent_users o named_users",
  invalidEnvironment: "debe ser prod o test",
  invalidModule: "debe ser Emission, Reception o Conciliation",
  invalidCharacters: "contiene caracteres no permitidos",
  estimatedHoursTaken: "ya tiene horas estimadas en este proyecto",
  dateRangeReversed: "La fecha de inicio no puede ser posterior a la fecha de fin.",
  dateRangeTooLong: "El rango de fechas no puede ser mayor a un año",
  holydaysFileInvalid: "Archivo no valido o no seleccionado.",
  holydaysHeaderInvalid:
    'El archivo debe tener en la primera fila las columnas "fecha,nombre" (fecha como AAAA-MM-DD o DD/MM/AAAA).',
  holydaysFileEmpty: "El archivo no contiene días festivos",
  holydaysRowsInvalid: "El archivo tiene filas no válidas",
  holydaysTooManyRows: (max: number) => `El archivo tiene demasiadas filas (máximo ${max})`,
  holydaysAllRegistered: "Todos los días festivos ya estaban registrados",
  prospectInUse: (quotations: number, activities: number) =>
    `el prospecto tiene ${counted(quotations, "cotización", "cotizaciones")} y ${counted(activities, "actividad", "actividades")} registradas`,
  clientGroupInUse: (n: number) => `el grupo tiene ${counted(n, "cliente", "clientes")}`,
  productInUse: (uses: string) => `el producto se usa en ${uses}`,
  projectTypeInUse: (n: number) => `el tipo de proyecto se usa en ${counted(n, "proyecto", "proyectos")}`,
  activityTypeInUse: (n: number) => `el tipo de actividad se usa en ${counted(n, "actividad", "actividades")}`,
  // activities
  invalidActionType: "debe ser project, support, quote, internal, rh o vacation",
  activityEndBeforeStart: "debe ser posterior a la hora de inicio",
  activitySameDay: "la actividad debe empezar y terminar el mismo día",
  activityWholeMinutes: "debe ser una hora en minutos exactos",
  activitySupportClientOnly: "una actividad de soporte solo puede ser de un cliente",
  activitiesNone: "No tienes ninguna actividad",
  activitiesTooMany: (max: number) => `No se pueden enviar más de ${max} actividades a la vez`,
  activityConflict: "Hay eventos con fechas en conflictos",
  activityFrozen: "La actividad está en un periodo cerrado",
  activityProjectNotCurrent: (code: string, state: string) =>
    `El proyecto ${code} está ${state.toLowerCase()}: ya no recibe actividades nuevas`,
  activityNotFoundForUpdate: "La actividad no se encontró para actualizar",
  activityOwnOnly: "Solo puede registrar sus propias actividades",
  activityExcludedCustomer: "no se puede usar en actividades de soporte",
  activityProductNotSelectable: "no se puede seleccionar para actividades",
  activityNoDefaultCustomer: "No hay un cliente predeterminado configurado en la aplicación",
  // hours on days after today (app_settings.allow_future_activities)
  activityFutureDay: (date: string) =>
    `No se pueden registrar horas en días futuros (${dmy(date)}). Un administrador puede permitirlo en Configuración.`,
  selectEmployee: "Seleccione un empleado",
  activitiesSaved: "Las actividades se guardaron correctamente",
  activitiesAllAdded: "Todas las actividades se agregaron correctamente",
  activityEdited: "La actividad se edito correctamente",
  activitiesRemoved: "Las actividades se removieron correctamente",
  activitiesCsvDownloaded: "Se descargo el csv de las actividades",
  weekClosed: "La semana se cerró correctamente",
  weekOpened: "La semana se abrió correctamente",
  monthClosed: "El mes se cerró correctamente",
  monthOpened: "El mes se abrió correctamente",
  copySkippedHoliday: "Día festivo",
  copySkippedFrozen: "La actividad está en un periodo cerrado",
  copySkippedConflict: "Hay eventos con fechas en conflictos",
  copyNothing: "No tienes ninguna actividad de la semana anterior",
  ticketsTitle: "Azure Devops",
  ticketsNotConfigured: "No hay un servicio de tickets configurado (Azure Devops)",
  ticketsFailed: "No se pudieron consultar los tickets (Azure Devops)",
  // the Azure DevOps adapter: every failure is a 422 titled "Azure Devops" with one of these
  ticketsNoProject:
    "Seleccione un proyecto para buscar tickets (o configure AZURE_DEVOPS_PROJECT con el proyecto de Azure Devops)",
  ticketsSiaProjectMissing: "El proyecto seleccionado no existe",
  ticketsNoToken: "No hay un token de Azure Devops: guarde su token personal en su perfil o configure AZURE_DEVOPS_PAT",
  ticketsUnauthorized: "Azure Devops rechazó el token de acceso personal (no es válido, ha caducado o no tiene permiso)",
  ticketsProjectNotFound: (name: string) => `El proyecto «${name}» no existe en Azure Devops o el token no tiene acceso a él`,
  ticketsUnreachable: "No se pudo conectar con Azure Devops: revise AZURE_DEVOPS_ORG_URL y la red",
  ticketsHttpError: (status: number) => `Azure Devops respondió con un error (HTTP ${status})`,
  ticketsBadAnswer: "Azure Devops respondió algo que SIA no entiende",
  activityIndex: (n: number) => `Actividad ${n}: `,
  // the week save (one request: creates, updates, deletions) and the week's state
  activityMissing: (id: number) => `La actividad ${id} ya no existe: pudo haber sido eliminada. Actualice la semana.`,
  activityRepeatedInBatch: "La actividad aparece más de una vez en los cambios",
  activityStaleInBatch: (id: number) =>
    `Otro usuario o pestaña cambió la actividad ${id} mientras usted la editaba. Actualice la semana y vuelva a guardar.`,
  copyAllCopied: (n: number) =>
    n === 1 ? "Se copió la actividad de la semana anterior" : `Se copiaron las ${n} actividades de la semana anterior`,
  copySomeCopied: (copied: number, total: number) =>
    `Se copiaron ${copied} de ${total} actividades de la semana anterior; las demás se omitieron`,
  copyNoneCopied: (total: number, why: string) =>
    total === 1
      ? `No se copió la actividad de la semana anterior: ${why}`
      : `No se copió ninguna de las ${total} actividades de la semana anterior: ${why}`,
  copyDryRunAll: (n: number) =>
    n === 1 ? "Se copiará la actividad de la semana anterior" : `Se copiarán las ${n} actividades de la semana anterior`,
  copyDryRunSome: (copied: number, total: number) =>
    `Se copiarán ${copied} de ${total} actividades de la semana anterior; las demás se omitirán`,
  copyDryRunNone: (total: number, why: string) =>
    total === 1
      ? `No se puede copiar la actividad de la semana anterior: ${why}`
      : `No se puede copiar ninguna de las ${total} actividades de la semana anterior: ${why}`,
  // imports: events no activity can hold (the activity schema's time rules, said before saving)
  importZeroLength: "La actividad no tiene duración",
  importPastMidnight: "La actividad termina después de la medianoche",
  importEndsBeforeStart: "La actividad termina antes de empezar",
  importWholeMinutes: "La hora de la actividad debe ser en minutos exactos (sin segundos)",
  // the weekly calendar (SPEC §5, §8)
  allDayDropRefused:
    'Se necesita crear la actividad dando click en la casilla "todo el dia" o duplicarla arrastrándola del icono.',
  allDayDragWarning: "Se necesita crear la actividad desde el SIA",
  activityDeleted: "La actividad se eliminó correctamente",
  confirmDeleteActivity: "¿Deseas eliminar la actividad?",
  confirmCloseWeek: "¿Deseas cerrar la semana? Ya no podrás modificar sus actividades.",
  copySkippedSummary: (n: number) => `${n === 1 ? "No se copió" : "No se copiaron"} ${counted(n, "actividad", "actividades")}:`,
  // timesheet imports: the local saved week (SPEC §4, §8)
  savedWeekNone: "No tienes ninguna actividad de la semana guardada",
  savedWeekNotFound: "No se encontró ninguna semana almacenada",
  noDaySelected: "No tienes ningun día seleccionado",
  importFailedTitle: "Error en la importación",
  importFailed: "Hubo un error al importar las actividades de la semana",
  csvImportErrorsTitle: "Error en importación",
  localSaveFailedTitle: "Error",
  localSaveFailed: "Revise sus actividades. Puede que haya superado el límite o el formato sea incorrecto.",
  activitiesUpdatedLocally: "Las actividades se actualizaron localmente de manera correcta",
  activitiesImported: "Se importaron correctamente las actividades",
  activitiesImportedWithWarnings: "Se importaron las actividades con avisos: revise lo que se omitió",
  confirmGoogleImport: "¿Deseas importar las actividades localmente del Google Calendar a la semana actual?",
  confirmCsvImport: "¿Deseas importar las actividades localmente del archivo CSV a la semana actual?",
  confirmRemoveWeek: "¿Deseas remover las actividades de la semana?",
  confirmSaveWeek: "¿Deseas guardar en el SIA las actividades de la semana?",
  savedCountDiffers: (sent: number, saved: number) => `Se enviaron ${sent} actividades y se guardaron ${saved}.`,
  // the draft week (timesheet): impossible times, another person's changes, a closed week
  weekSaveFailedTitle: "No se guardó la semana",
  importAllSaved: "Todas las actividades de la semana ya están en el SIA.",
  timesheetStaleTitle: "Otra persona cambió actividades de esta semana",
  timesheetRebased: "Se tomaron las versiones actuales; tus cambios siguen en la semana guardada. Revísalos y guarda de nuevo.",
  timesheetWeekClosed: "La semana está cerrada: sus actividades ya no se pueden modificar.",
  /** A cell of the weekly grid that is not a number of hours. */
  gridHoursInvalid: "Escribe las horas como 2, 2,5, 2:30 o 150m",
  gridHoursTooMany: "Un día tiene como máximo 24 horas",
  gridHoursWholeMinutes: "Las horas deben ser minutos enteros",
  /** A day of the grid without room left for the hours asked from 09:00 to midnight. */
  gridNoRoom: "No cabe en el día: no quedan horas libres desde las 09:00",
  timesheetMonthClosed: "El mes está cerrado: sus actividades ya no se pueden modificar.",
  timesheetTodosReadOnly: "Vista de todos los empleados: solo lectura. Elige un empleado para registrar o cambiar.",
  timesheetDraftCopyDisabled: "Guarda o remueve la semana guardada antes de copiar la semana anterior.",
  // projects
  commentRequired: "Por favor, agregue un comentario",
  invalidTransition: (event: string, state: string) => `El evento «${event}» no está permitido en el estado «${state}»`,
  etaMustBeLater: (current: string) => `debe ser posterior a la fecha estimada actual (${dmy(current)})`,
  etaBeforeProjectDate: (projectDate: string) => `no puede ser anterior a la fecha del proyecto (${dmy(projectDate)})`,
  projectInUse: (invoices: number, activities: number, hours: number) =>
    `el proyecto tiene ${counted(invoices, "factura", "facturas")}, ${counted(activities, "actividad", "actividades")} y ${counted(hours, "hora estimada", "horas estimadas")} registradas`,
  stateNotEditable: "solo cambia con los eventos del proyecto",
  notificationRecorded: (n: number) =>
    `Se registró el aviso para ${n} usuario(s). El envío por correo aún no está disponible: el aviso queda en notificaciones.`,
  projectNotice: (code: string, name: string, state: string) => `Proyecto ${code} «${name}»: estado ${state}.`,
  noUsersToNotify: "El proyecto no tiene PM ni responsable con usuario para avisar",
  percentageExceeded: (remaining: number) =>
    `La suma de las facturas no puede superar el 100 % del proyecto; queda ${remaining} % por facturar`,
  folioOnlyWhenResolved: "solo se puede capturar cuando la factura está Resuelto",
  invoiceCancelledLocked: "la factura está cancelada y ya no se puede modificar",
  // final records (docs/decisions/028-final-records-read-only.md)
  quotationFinalLocked: (state: string) =>
    `La cotización está en «${state}»: es un registro final y ya no se puede modificar ni eliminar`,
  quotationFinalDelete: (state: string) => `la cotización está en «${state}», un estado final`,
  invoiceResolvedLocked: "la factura está resuelta: solo cambia con un cambio de estado",
  invoiceFolioFixed: "la factura resuelta ya tiene folio y no se puede cambiar",
  invoiceFinalDelete: (state: string) => `la factura está en «${state}», un estado final`,
  folioTaken: "ya está registrado en otra factura",
  projectFullyInvoiced: "El proyecto ya está facturado al 100 %: no admite más facturas",
  notFullyInvoiced: (invoiced: number) =>
    `Solo se puede marcar «100% facturas ya realizadas» cuando las facturas del proyecto suman 100 %; hoy suman ${invoiced} % (sin contar las canceladas)`,
  invoiceActionReverted: (invoiced: number) =>
    `Las facturas del proyecto ya no suman 100 % (hoy ${invoiced} %): queda como parcialmente facturado`,
  warrantyAutoClosed: (days: number) => `Cierre automático: la garantía cumplió ${days} días.`,
  // a fair share of the server: downloads, future hours (docs/decisions/037-downloads-fair-share.md)
  downloadInProgress: (max: number) =>
    max === 1
      ? "Ya tiene una descarga en curso: espere a que termine antes de iniciar otra."
      : `Ya tiene ${max} descargas en curso: espere a que termine una antes de iniciar otra.`,
  downloadsBusy: "Hay demasiadas descargas en curso en este momento: espere unos segundos e intente de nuevo.",
  downloadStalled: "La descarga se interrumpió porque el navegador dejó de recibir datos",
  activityNotAvailable: (id: number) =>
    `La actividad ${id} no existe o no es suya: pudo haber sido eliminada. Actualice la semana.`,
} as const;

export type Messages = typeof messages;

/** The API's answers to database errors a request caused (server/http/errors.ts). */
export const databaseMessages = {
  /** Spanish plural names of the tables that can hold a record back from deletion. */
  tables: {
    projects: "proyectos",
    activities: "actividades",
    app_licenses: "licencias",
    assignments: "asignaciones",
    invoices: "facturas",
    clients: "clientes",
    employees: "empleados",
    products: "productos",
    quotations: "cotizaciones",
    client_product_catalogs: "productos de clientes",
    app_settings: "la configuración de la aplicación",
    estimated_work_hours: "horas estimadas",
    project_messages: "mensajes",
    bosses_workspaces: "jefes de espacio de trabajo",
    users: "usuarios",
  } as Record<string, string>,
  otherRecords: "otros registros",
  inUseIn: (what: string) => `está en uso en ${what}`,
} as const;

// pipeline
export const pipelineMessages = {
  folderNotSelected: "No se ha seleccionado una carpeta",
  oldFolderNotRemoved: "El folder anterior no se pudo eliminar del drive.",
  contractCopyFailed: "No se pudo copiar el archivo del contrato de PLD",
  driveUpdated: "Drive Actualizado",
  driveFailed: "No se pudo actualizar el drive. Intente de nuevo.",
  folderNotFound: "la carpeta no existe en el drive",
  invalidAttendees: "Verifique que los correos ingresados estén correctos.",
  commentRequired: "Por favor, agregue un comentario",
  quotationWithoutProspect: "la cotización no tiene prospecto",
  projectTypeMissing: (id: number) => `No existe el tipo de proyecto ${id} (cotización)`,
  folderInsideProspect: "la carpeta del cliente no puede estar dentro de la carpeta del prospecto",
  projectWithoutClientFolder: "el cliente del proyecto no tiene carpeta en el drive",
  prospectAlreadyClient: (prospect: string, client: string) =>
    `El prospecto «${prospect}» ya es el cliente «${client}»: continúe desde el cliente.`,
} as const;

// One folder, one record; folders follow their records (decision 027)
export const folderMessages = {
  taken: "la carpeta ya pertenece a otro registro",
  isRoot: "la carpeta raíz del drive no puede ser la carpeta de un registro",
  reserved: (name: string) => `la carpeta «${name}» es del SIA (plantillas de documentos): elija o cree otra`,
  ofRecord: (whose: string) => `la carpeta ya es la ${whose}`,
  insideRecord: (whose: string) => `la carpeta está dentro de la carpeta ${whose}`,
  containsRecord: (whose: string) => `la carpeta contiene la carpeta ${whose}`,
  client: (name: string) => `del cliente «${name}»`,
  prospect: (name: string) => `del prospecto «${name}»`,
  project: (name: string) => `del proyecto «${name}»`,
  created: (name: string) => `se creó «${name}»`,
  renamed: (from: string, to: string) => `se renombró «${from}» a «${to}»`,
  moved: (name: string, to: string) => `se movió «${name}» a «${to}»`,
  notOwn: (name: string) => `la carpeta «${name}» no es solo de este registro: no se renombró`,
  inOrder: "Todo estaba en orden",
} as const;

// reports (reporting screen and reporting_activities.csv, SPEC §5)
export const reportMessages = {
  selectItem: {
    project: "Por favor seleccione un proyecto antes de descargar",
    client: "Por favor seleccione un cliente antes de descargar",
    employee: "Por favor seleccione un empleado antes de descargar",
    client_group: "Por favor seleccione un Grupo de cliente antes de descargar",
    workspace: "Por favor seleccione un espacio de trabajo antes de descargar",
  },
  selectKind: "Por favor seleccione el tipo de reporte",
  selectDates: "Por favor seleccione las fechas de inicio y fin.",
  startAfterEnd: "La fecha de inicio no puede ser posterior a la fecha de fin.",
  endAfterToday: "La fecha de fin no puede ser posterior a hoy.",
  downloadFailed: "No se pudo descargar el reporte",
} as const;

// --- scheduled e-mail and jobs ---
const WEEKDAY_NAMES = ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"];
/** «lunes 30/11/2026»: a day as it is said (e-mails, the calendar's names for screen readers). */
export const dayName = (date: string) => `${WEEKDAY_NAMES[new Date(`${date}T00:00:00Z`).getUTCDay()]} ${dmy(date)}`;
const hoursText = (h: number) => `${Number.isInteger(h) ? h : h.toFixed(2)} h`;

export const jobMessages = {
  jobLabels: {
    weekly_reminder: "Recordatorio semanal de horas",
    weekly_report: "Reporte semanal por espacio de trabajo",
    warranty_auto_close: "Cierre automático de garantías",
    mention_email: "Correo de menciones no vistas",
    nightly_backup: "Respaldo nocturno",
    budget_alerts: "Alertas de horas de proyectos",
    week_auto_approve: "Aprobación automática de semanas",
  } as Record<string, string>,
  jobUnknown: "La tarea no existe",
  jobDone: (label: string, summary: string) => `${label}: ${summary}`,
  jobAlreadyDone: (label: string, period: string, sends = true) =>
    `${label}: ya se ejecutó para el periodo ${period}; ${sends ? "no se envió nada de nuevo" : "no se repitió"}. Use «Forzar» para repetirla.`,
  jobBusy: (label: string) => `${label}: otra ejecución está en curso; intente de nuevo en un momento.`,
  jobWarrantyClosed: (n: number) => (n === 1 ? "se cerró 1 garantía" : `se cerraron ${n} garantías`),
  jobMentionsEmailed: (n: number) => (n === 1 ? "se envió 1 mención por correo" : `se enviaron ${n} menciones por correo`),
  jobRemindersSent: (reminders: number, digests: number) =>
    `${reminders === 1 ? "se envió 1 recordatorio" : `se enviaron ${reminders} recordatorios`}${
      digests ? ` y ${digests === 1 ? "1 resumen a jefes" : `${digests} resúmenes a jefes`}` : ""
    }`,
  jobReportsSent: (n: number, skipped: number) =>
    `${n === 1 ? "se envió 1 reporte" : `se enviaron ${n} reportes`}${
      skipped ? ` (${skipped} espacio(s) notificable(s) sin jefes con correo)` : ""
    }`,
  jobSendFailures: (n: number) => `; ${n} mensaje(s) no se pudieron enviar (ver el detalle de la ejecución)`,
  weekRange: (starts: string, ends: string) => `del ${dmy(starts)} al ${dmy(ends)}`,
  dayName,
  reminderSubject: (starts: string, ends: string) => `SIA: completa tu semana ${jobMessages.weekRange(starts, ends)}`,
  reminderGreeting: (name: string) => `Hola, ${name}:`,
  reminderSummary: (starts: string, ends: string, logged: number, expected: number) =>
    `En la semana ${jobMessages.weekRange(starts, ends)} registraste ${hoursText(logged)} de ${hoursText(expected)} esperadas: faltan ${hoursText(
      Math.max(0, expected - logged),
    )}.`,
  reminderDaysHeading: "Horas que faltan por día:",
  reminderDay: (day: string, missing: number, logged: number, expected: number) =>
    `${day}: faltan ${hoursText(missing)} (registraste ${hoursText(logged)} de ${hoursText(expected)})`,
  reminderHolidays: (n: number) =>
    n === 1 ? "Se descontó 1 día festivo de las horas esperadas." : `Se descontaron ${n} días festivos de las horas esperadas.`,
  reminderCompensated: (extra: number, missing: number) =>
    `Las ${hoursText(extra)} de más que registraste otros días ya se restaron: en la semana faltan ${hoursText(missing)}.`,
  reminderLink: (url: string) => `Completa esa semana aquí: ${url}`,
  reminderClosed: (url: string) =>
    `La semana ya está cerrada: si falta algo, pide a un administrador que la reabra. Puedes revisarla aquí: ${url}`,
  reminderClosing: "Este es un mensaje automático de SIA.",
  digestSubject: (starts: string, ends: string) =>
    `SIA: horas faltantes de tu equipo, semana ${jobMessages.weekRange(starts, ends)}`,
  digestIntro: (starts: string, ends: string, people: number) =>
    `En la semana ${jobMessages.weekRange(starts, ends)}, ${
      people === 1 ? "1 persona de tu equipo registró" : `${people} personas de tu equipo registraron`
    } menos horas de las esperadas:`,
  digestLine: (name: string, missing: number, expected: number, days: string[], note: { closed: boolean; noAccount: boolean }) =>
    `${name}: faltan ${hoursText(missing)} de ${hoursText(expected)} (${days.join("; ")})${note.closed ? "; semana cerrada" : ""}${
      note.noAccount ? "; sin cuenta en SIA, no recibe recordatorios" : ""
    }`,
  digestDay: (day: string, missing: number) => `${day}: ${hoursText(missing)}`,
  budgetSubject: (code: string, name: string, threshold: number, repeated: boolean) =>
    threshold >= 100
      ? `SIA: ${code} ${name} ${repeated ? "sigue por encima de" : "superó"} sus horas estimadas`
      : `SIA: ${code} ${name} llegó al ${threshold} % de sus horas estimadas`,
  budgetIntro: (code: string, name: string) => `El proyecto ${code} ${name} lleva registradas:`,
  budgetHours: (logged: number, estimate: number, percent: number) =>
    `${hoursText(logged)} de ${hoursText(estimate)} estimadas (${percent} %).`,
  budgetOver: (over: number) => `Ya se rebasaron las horas estimadas por ${hoursText(over)}.`,
  budgetPace: (pace: number, weeks: number) => `Ritmo de las últimas ${weeks} semanas: ${hoursText(pace)} por semana.`,
  budgetRunsOut: (date: string) => `A ese ritmo, las horas estimadas se agotan hacia el ${dmy(date)}.`,
  budgetNoPace: "Sin horas registradas en las últimas semanas: no hay pronóstico.",
  budgetRepeat: "Este aviso se repite cada semana mientras el proyecto siga por encima de lo estimado.",
  budgetLink: (url: string) => `Ver el proyecto: ${url}`,
  jobBudgetAlertsSent: (n: number) => (n === 1 ? "se avisó de 1 proyecto" : `se avisó de ${n} proyectos`),
  reportSubject: (workspace: string, starts: string, ends: string) =>
    `SIA: reporte semanal de actividades de ${workspace} ${jobMessages.weekRange(starts, ends)}`,
  reportBody: (workspace: string, starts: string, ends: string, rows: number) =>
    `Se adjunta el reporte de actividades del espacio de trabajo ${workspace} de la semana ${jobMessages.weekRange(starts, ends)} (${rows} actividad(es)).`,
} as const;

// Google Calendar: the week import and quotation events (SPEC §8)
export const calendarMessages = {
  tokenExpired: "Google Token caducado",
  organizerNotConnected:
    "El organizador del evento no ha conectado su Google Calendar; conéctelo desde «Importar actividades» e intente de nuevo",
  eventFailed: "No se pudo guardar el evento en Google Calendar. Intente de nuevo.",
  connected: "Google Calendar conectado: ya puede importar sus actividades",
  connectFailed: "No se pudo conectar Google Calendar. Intente de nuevo.",
} as const;

// fair share of the server per user (server/http/fairShare.ts, server/auth/passwords.ts, the realtime stream)
export const fairShareMessages = {
  tooManyRequests:
    "Tiene demasiadas solicitudes en curso; espere a que terminen (o cierre pestañas que no use) e intente de nuevo en unos segundos",
  signInBusy: "Hay muchos inicios de sesión al mismo tiempo; intente de nuevo en unos segundos",
  addressBusy: "Llegan demasiadas solicitudes a la vez desde su red; intente de nuevo en unos segundos",
  passwordBusy: "El servidor está procesando muchas contraseñas al mismo tiempo; intente de nuevo en unos segundos",
  streamReplaced: "Se abrió SIA en demasiadas pestañas; esta dejó de recibir avisos en tiempo real. Recárguela para reanudarlos",
} as const;

// timesheet imports: calendar (.ics, Google) and CSV
export const importMessages = {
  wrongParts: (code: string, shape: string, expected: number, parts: number) =>
    `El título con ${code} necesita ${expected} partes separadas por «|» (${shape}) y tiene ${parts}; se importó como actividad interna para revisar`,
  unrecognised: "El título no tiene un formato reconocido (P, S, PC, AS o RH); se importó como actividad interna para revisar",
  untitled: "El evento no tiene título",
  projectFoundNeedsType: "Se reconoció el proyecto en el título; falta el tipo de actividad",
  clientFoundNeedsProduct: "Se reconoció el cliente en el título; falta el producto",
  descriptionMissing: "Falta la descripción",
  typeMissing: "Falta el tipo de actividad",
  projectMissing: "Falta el código de proyecto",
  clientMissing: "Falta el cliente",
  ownerMissing: "Falta el cliente o prospecto",
  productMissing: "Falta el producto",
  projectNotFound: (value: string) => `No se encontró el proyecto «${value}»`,
  clientNotFound: (value: string) => `No se encontró el cliente «${value}»`,
  ownerNotFound: (value: string) => `No se encontró el cliente o prospecto «${value}»`,
  productNotFound: (value: string) => `No se encontró el producto «${value}» (o no se puede elegir)`,
  typeNotFound: (value: string) => `No se encontró el tipo de actividad «${value}»`,
  clientExcludedFromSupport: (value: string) => `El cliente «${value}» no puede usarse en actividades de soporte`,
  fileInvalid: "Archivo no válido o no seleccionado.",
  icsUnreadable: "El archivo no es un calendario .ics válido",
  icsNoCalendar: "El archivo no es un calendario .ics válido: no tiene ningún BEGIN:VCALENDAR … END:VCALENDAR completo",
  icsBroken: (reason: string) => `El archivo no es un calendario .ics válido: ${reason}`,
  icsTooManyEvents: (max: number) =>
    `El calendario tiene más de ${max.toLocaleString("es-MX")} eventos; exporte solo el periodo que necesita`,
  icsTooManyInstances: (max: number) =>
    `La semana tendría más de ${max.toLocaleString("es-MX")} eventos; el calendario tiene repeticiones demasiado frecuentes`,
  icsRuleTooDense: (event: string) =>
    `La repetición del evento ${event} produce demasiadas fechas para leerla (se repite muy seguido o desde hace demasiado tiempo); quítela del archivo o expórtelo de nuevo`,
  icsRuleImpossible: (event: string) =>
    `La regla de repetición del evento ${event} nunca ocurre (por ejemplo, un 30 de febrero); corríjala o quítela del archivo`,
  icsTooSlow: (seconds: number) =>
    `El calendario no se pudo leer en ${seconds} s: es demasiado grande o tiene repeticiones imposibles; exporte solo el periodo que necesita`,
  icsAnswerTooBig: "Los eventos de la semana ocupan demasiado; el calendario tiene eventos repetidos o textos demasiado largos",
  icsOneAtATime: "Ya se está leyendo otro calendario suyo; espere a que termine e intente de nuevo",
  icsBusy: "El servidor está leyendo muchos calendarios a la vez; intente de nuevo en unos segundos",
  icsEventLabel: (summary: string, uid: string, line: number | null) =>
    `${summary ? `«${summary}»` : "sin título"}${
      uid || line
        ? ` (${[uid ? `UID ${uid}` : "", line ? `que empieza en la línea ${line}` : ""].filter(Boolean).join(", ")})`
        : ""
    }`,
  icsSkippedEvent: (event: string, reason: string) => `Se omitió el evento ${event}: ${reason}`,
  icsSkippedRule: (line: number, content: string) =>
    `Se ignoró la regla de repetición de la línea ${line} («${content}»): no es una regla RRULE válida; el evento se leyó una sola vez`,
  icsRepairedRule: (line: number, content: string, kept: string) =>
    `La regla de repetición de la línea ${line} («${content}») está dañada: se leyó lo que se entiende de ella («${kept}»); revise las fechas de ese evento`,
  icsSkippedLine: (line: number, content: string) =>
    `Se omitió la línea ${line} («${content}»): no es una línea iCalendar válida`,
  icsUnknownZone: (zone: string, readAs: string) =>
    `La zona horaria «${zone}» no se reconoce y el archivo no la define: sus horas se leyeron como hora de ${readAs === "America/Mexico_City" ? "la Ciudad de México" : readAs}; revíselas`,
  icsNoStart: "no tiene fecha de inicio (DTSTART)",
  icsBadDate: "una fecha no es válida",
  icsBadRule: "su regla de repetición no es válida",
  icsMoreWarnings: (count: number) => `… y ${count} avisos más`,
  icsWarningsTitle: "Algunos eventos del calendario no se pudieron leer",
  startDateRequired: "Indique la semana a importar (start_date)",
  dayOutsideWeek: "El día elegido no pertenece a la semana a importar",
  sourceInvalid: "Envíe un archivo .ics o source «google»",
  googleNotConfigured:
    "No hay un servicio de Google Calendar configurado en este servidor; exporte su calendario como .ics e impórtelo",
  googleTokenMissing: "No ha guardado el token de Google Calendar; inicie sesión con Google nuevamente",
  googleFailed: "Error al obtener eventos. Recargue la página o inicie sesión nuevamente",
  googleConnectInvalid: "La conexión con Google Calendar no es válida o caducó; intente conectar de nuevo",
  memoryApplied: "Mapeo recordado de la serie",
  csvLine: (line: number, message: string) => `Línea ${line}: ${message}`,
  csvMissingColumns: (columns: string) => `Faltan columnas en el encabezado: ${columns}`,
  csvNoRows: "El archivo no tiene actividades",
  csvBadDate: (value: string) => `fecha «${value}»: no es una fecha válida (AAAA-MM-DD o DD/MM/AAAA)`,
  csvOutsideWeek: (monday: string, sunday: string) => `la fecha está fuera de la semana del ${dmy(monday)} al ${dmy(sunday)}`,
  csvBadTime: (field: string, value: string) =>
    `${field} «${value}»: no es una hora válida (de 00:00 a 24:00, HH:MM o como 9:00 a. m.)`,
  csvEndBeforeStart: "la hora de fin debe ser posterior a la de inicio",
  csvBadType: (value: string) => `tipo «${value}»: debe ser P, S, PC, AS, RH o V`,
  csvFieldMissing: (field: string) => `falta ${field}`,
  csvCellCount: (cells: number, columns: number) =>
    `tiene ${cells} celdas y el encabezado ${columns}; revise el separador y las comillas`,
  csvCellTooLong: (field: string, max: number) => `${field}: es demasiado largo (máximo ${max} caracteres)`,
  csvOpenQuote: "una comilla abre una celda y no se cierra",
  csvTooManyRows: (max: number) => `El archivo tiene más de ${max} actividades; una semana se importa con ${max} como máximo`,
  // uploads bounded by what they hold (records, columns, characters), read off the event loop
  csvTooManyLines: (max: number) =>
    `El archivo tiene más de ${max.toLocaleString("es-MX")} líneas, contando las vacías; quite las líneas sobrantes e intente de nuevo`,
  csvTooManyColumns: (max: number) => `tiene más de ${max} columnas; revise el separador y las comillas`,
  csvColumnLabel: (column: number) => `columna ${column}`,
  csvUnreadable: "El archivo no se pudo leer como CSV",
  csvTooSlow: (seconds: number) => `El archivo no se pudo leer en ${seconds} s: es demasiado grande o está dañado`,
  csvBusy: "El servidor está leyendo muchos archivos a la vez; intente de nuevo en unos segundos",
  uploadOneAtATime: "Ya se está leyendo otro archivo suyo; espere a que termine e intente de nuevo",
} as const;

// dashboards (the charts)
export const dashboardMessages = {
  rangeOrder: "La fecha de inicio no puede ser posterior a la fecha de fin.",
  rangeTooLong: (weeks: number) => `El periodo no puede abarcar más de ${weeks} semanas.`,
  year: "no es un año válido",
} as const;

// --- capacity and utilisation (administrators) ---
export const capacityMessages = {
  notMonday: (label: string) => `${label} debe ser un lunes (las semanas empiezan en lunes).`,
  fromLabel: "La semana inicial",
  toLabel: "La semana final",
  rangeOrder: "La semana final no puede ser anterior a la semana inicial.",
  rangeTooLong: (weeks: number) => `El periodo no puede abarcar más de ${weeks} semanas.`,
  /** The CSV's headers, in order (one line per person and week). */
  csvHeaders: [
    "Empleado",
    "Espacio de trabajo",
    "Semana (lunes)",
    "Horas diarias",
    "Capacidad",
    "Asignadas",
    "Estado",
    "Registradas",
    "Proyecto",
    "Soporte",
    "Interno",
    "Vacaciones",
  ],
  /** How each cell's state reads (screen and CSV). */
  states: { over: "Sobreasignado", under: "Subasignado", ok: "Asignado", none: "Sin capacidad" },
} as const;

// --- the week sent to review: submitted, approved or returned (docs/decisions/050-week-approval.md) ---
export const reviewMessages = {
  submitted: "La semana se envió a revisión",
  approvedCount: (n: number) => (n === 1 ? "Se aprobó 1 semana" : `Se aprobaron ${n} semanas`),
  returned: "La semana se devolvió a su empleado",
  notYet: "Solo se puede enviar a revisión una semana a partir de su viernes",
  alreadySubmitted: "La semana ya está en revisión",
  alreadyApproved: "La semana ya fue aprobada",
  frozen: "La semana está cerrada: un administrador debe abrirla antes de enviarla a revisión",
  ownWeek: "Nadie puede aprobar ni devolver su propia semana: lo hace otro jefe o un administrador",
  notReviewer: "Solo los jefes de su espacio de trabajo o un administrador revisan esta semana",
  onlyAdminReopens: "Solo un administrador puede reabrir una semana aprobada",
  notSubmitted: "La semana no está en revisión",
  /** Someone else approved or returned it first: the 409 of a review taken at a stale version. */
  reviewedMeanwhile: (name: string, starts: string) =>
    `Otra persona ya revisó la semana del ${dmy(starts)} de ${name}. Vuelva a cargar la lista.`,
  reasonRequired: "Escriba el motivo de la devolución",
  reasonTooLong: "El motivo no puede pasar de 1000 caracteres",
  weeksRequired: "Seleccione al menos una semana",
  tooManyWeeks: (max: number) => `No se pueden aprobar más de ${max} semanas a la vez`,
  autoApproveDays: "debe ser un número entero de días entre 1 y 60",
  autoApproved: (days: number) => `Aprobada automáticamente tras ${days === 1 ? "1 día" : `${days} días`} sin revisión`,
  /** The bell, the push and the e-mail of a returned week. */
  returnedTitle: (starts: string, ends: string) => `Tu semana ${jobMessages.weekRange(starts, ends)} fue devuelta`,
  returnedBody: (reviewer: string, starts: string, ends: string, reason: string) =>
    `${reviewer} devolvió tu semana ${jobMessages.weekRange(starts, ends)}: ${reason}`,
  monthClosed:
    "La semana está dentro de un mes cerrado: un administrador debe abrir el mes antes de devolverla, o la persona no podría corregirla",
  nothingToReview: "No hay nada que revisar en esa semana: no tiene días hábiles para esta persona ni horas registradas",
  reasonInvisible: "El motivo debe decir algo: escriba letras o números",
  returnedMailText: (name: string, starts: string, ends: string, reviewer: string, reason: string, url: string) =>
    [
      jobMessages.reminderGreeting(name),
      "",
      `${reviewer} devolvió tu semana ${jobMessages.weekRange(starts, ends)} para que la corrijas.`,
      `Motivo: ${reason}`,
      "",
      `Corrígela y vuelve a enviarla a revisión aquí: ${url}`,
      "",
      jobMessages.reminderClosing,
    ].join("\n"),
  /** The Tuesday digest: the weeks waiting for this boss's review. */
  digestPendingHeading: (n: number) => (n === 1 ? "1 semana espera tu revisión:" : `${n} semanas esperan tu revisión:`),
  digestPendingSubject: (n: number) => (n === 1 ? "SIA: 1 semana espera tu revisión" : `SIA: ${n} semanas esperan tu revisión`),
  digestPendingLine: (name: string, starts: string, ends: string) => `${name}: semana ${jobMessages.weekRange(starts, ends)}`,
  digestPendingLink: (n: number, url: string) => `${n === 1 ? "Revísala" : "Revísalas"} aquí: ${url}`,
  jobAutoApproved: (n: number) => (n === 1 ? "se aprobó 1 semana" : `se aprobaron ${n} semanas`),
  jobAutoApproveOff: "la aprobación automática está desactivada",
} as const;

// --- the administrators' «Integraciones» page ---
export const integrationMessages = {
  /** Each port's name on the page (server/modules/integrations/routes.ts lists the ports). */
  labels: {
    documents: "Drive (documentos)",
    calendar: "Calendario (eventos de cotizaciones)",
    calendarReader: "Importación de calendario",
    mail: "Correo saliente",
    tickets: "Tickets (Azure Devops)",
    push: "Notificaciones push (Web Push)",
    identity: "Inicio de sesión (OpenID Connect)",
  } as Record<string, string>,
  checkOk: "Conexión correcta",
  notConfigured: "No configurado: no hay un servicio externo que probar",
  calendarReaderNotConfigured: "No configurado: la importación lee solo archivos .ics",
  identityNotConfigured: "No configurado: se entra solo con correo y contraseña",
  checkTimeout: (seconds: number) => `El servicio no respondió en ${seconds} s`,
  checkFailed: "La prueba de conexión falló sin dar un motivo",
  unknownPort: "La integración no existe",
} as const;

// project boards, notifications and Web Push (9)
export const boardMessages = {
  bodyRequired: "El mensaje no puede estar vacío",
  bodyTooLong: (max: number) => `El mensaje no puede exceder ${max} caracteres`,
  cannotChat: "Tu usuario no tiene permiso para escribir en los tableros de proyecto",
  selfMention: "No puedes mencionarte a ti mismo",
  notMember: (handles: string[]) =>
    `Solo puedes mencionar a usuarios del proyecto (${handles.map((h) => `@${h}`).join(", ")} ${
      handles.length === 1 ? "no participa" : "no participan"
    } en él)`,
  noticeRequired: "El aviso no puede estar vacío",
  workspaceNotNotifiable: "El espacio de trabajo no recibe avisos: active sus notificaciones primero",
  noticeSent: (n: number) => (n === 1 ? "Aviso enviado a 1 usuario" : `Aviso enviado a ${n} usuarios`),
  streamOnly: "Esta ruta es un flujo de eventos: pídala con Accept: text/event-stream",
  subscriptionInvalid: "La suscripción de notificaciones no es válida",
  subscriptionHostNotAllowed:
    "La suscripción debe apuntar a un servicio de notificaciones del navegador (HTTPS de Google, Mozilla, Microsoft o Apple)",
  mentionTitle: (author: string, project: string) => `${author} te mencionó en ${project}`,
  noticeTitle: (author: string) => `Aviso de ${author}`,
  projectNoticeTitle: (code: string, author: string) => `Aviso del proyecto ${code} de ${author}`,
  mentionMailSubject: (project: string) => `Te mencionaron en el tablero de ${project}`,
  mentionMailText: (author: string, project: string, body: string, link: string) =>
    `${author} te mencionó en el tablero del proyecto ${project} y aún no lo has visto:\n\n«${body}»\n\nÁbrelo en SIA: ${link}\n`,
} as const;

/** The timesheet's week save, its dialog and its calendar: conflicts, offline, red events, closing a month. */
export const timesheetMessages = {
  importKeyTaken: "Esta actividad ya se guardó desde otra ventana o pestaña con otro contenido. Elija cuál conservar.",
  importKeyConflictTitle: "Otra ventana ya guardó estas actividades con otro contenido",
  importKeyKeptMine: "Sus cambios quedaron sobre lo guardado: revise la semana y pulse «Guardar semana».",
  importKeyKeptStored: "Se conservó lo guardado en la otra ventana.",
  offline: "Sin conexión: no se pudo comunicar con el servidor. Revise su conexión e intente de nuevo.",
  offlineWeekSave: "Sin conexión: la semana se guardará en cuanto vuelva la conexión. No cierre esta pestaña.",
  invalidBeforeSave:
    "Hay actividades por corregir (en rojo). Ábralas, corríjalas o confirme cada una con «Guardar»; después guarde la semana.",
  invalidBeforeSaveTitle: "Actividades por corregir",
  copySlotTaken: "La copia no se agregó: ese horario ya está ocupado. Suéltela en un horario libre.",
  moveSlotTaken: "La actividad no se movió: ese horario ya está ocupado.",
  noFreeSlot: "No queda un horario libre en esta semana.",
  importMerged: (count: number, title: string, when: string) =>
    `${when} «${title}»: ${count} eventos con el mismo título y horario se importaron como una sola actividad`,
};
// administrators and roles, look-alike clients and groups
export const accessMessages = {
  lastAdministrator:
    "No se puede quitar ni dar de baja al último administrador activo: primero dé el rol de Administrador a otro usuario activo",
  roleRequired: "elija al menos un rol: Administrador, Operador o Finanzas",
  groupNameTaken: "ya existe un grupo con ese nombre (sin importar mayúsculas, acentos ni espacios)",
  similarClients: (names: string[]) =>
    `Ya existe${names.length === 1 ? " un cliente parecido" : "n clientes parecidos"} (mismo nombre o RFC): ${names.join(", ")}. Revise que no sea el mismo antes de continuar.`,
  localAdminSecret: "La clave local de administración no es válida: ejecute create-admin en la máquina del servidor",
} as const;

/** The command lines' arguments (create-admin, backup, restore, move-to-postgres): server/cli/args.ts. */
export const argsMessages = {
  invalid: (reason: string) => `Argumentos inválidos: ${reason}`,
  missingValue: (option: string) => `Falta el valor de ${option}.`,
  takesNoValue: (option: string) => `${option} no lleva valor.`,
  unknownOption: (option: string) => `Opción desconocida: ${option}.`,
  unexpected: (argument: string) => `Argumento inesperado: ${argument}.`,
} as const;

/** `npm run move-to-postgres`: the embedded database copied into an empty PostgreSQL (server/cli/moveToPostgres.ts). */
export const moveMessages = {
  usage: "Uso: npm run move-to-postgres -- --to postgres://usuario:contraseña@servidor:5432/base",
  missingTo: "Falta la base de datos de destino (--to postgres://…).",
  badUrl: (to: string) =>
    `«${to}» no es una dirección de PostgreSQL: debe empezar con postgres:// o postgresql:// y nombrar el servidor.`,
  databaseUrlSet:
    "DATABASE_URL está definida: este comando copia la base embebida de DATA_DIR y recibe el destino en --to. Quite DATABASE_URL del entorno.",
  badConfig: (reason: string) => `La configuración no es válida: ${reason}`,
  noSource: (dataDir: string) => `No hay una base de datos embebida en ${dataDir} (revise DATA_DIR).`,
  serverRunning: (dataDir: string) =>
    `La carpeta de datos ${dataDir} está en uso por un servidor SIA: deténgalo antes de mover la base de datos.`,
  unreachable: (target: string, reason: string) => `No se pudo conectar a la base de destino ${target}: ${reason}`,
  notEmpty: (target: string, tables: string[]) =>
    `La base de destino ${target} no está vacía (${tables.length === 1 ? "la tabla" : "las tablas"} ${tables.join(", ")} ${
      tables.length === 1 ? "tiene" : "tienen"
    } filas): use una base recién creada (createdb).`,
  tablesDiffer: (missing: string[]) =>
    `Después de las migraciones el destino no tiene las tablas de origen ${missing.join(", ")}: nada se copió.`,
  mismatch: (tables: string[]) =>
    `Las filas copiadas no coinciden con las de origen en ${tables.join(", ")}: se deshizo todo y el destino quedó como estaba.`,
  failed: (reason: string) => `La copia falló y se deshizo (el destino quedó como estaba): ${reason}`,
  interrupted: "Movimiento interrumpido: el destino quedó como estaba (vacío).",
  opening: (dataDir: string, target: string) => `Copiando la base embebida de ${dataDir} a ${target}…`,
  header: ["tabla", "filas origen", "filas destino", "suma de verificación", ""],
  rowOk: "bien",
  rowBad: "DISTINTA",
  sequencesLabel: "(secuencias)",
  done: (tables: number, rows: number, sequences: number, seconds: string) =>
    `Listo: ${tables} tablas, ${rows} filas y ${sequences} secuencias copiadas y verificadas en una transacción, en ${seconds} s.`,
  sessionsKept: (n: number) =>
    n === 0
      ? "No había sesiones abiertas que copiar."
      : n === 1
        ? "Se copió 1 sesión abierta: quien la tenía sigue dentro sin volver a entrar."
        : `Se copiaron ${n} sesiones abiertas: quienes las tenían siguen dentro sin volver a entrar.`,
  /** `command` is already shell-quoted; `passwordHidden`: the target's password shows as *** in it. */
  nextStart: (dataDir: string, command: string, passwordHidden: boolean) =>
    `Para iniciar SIA sobre PostgreSQL, con los mismos archivos (drive/, outbox/, secret.key siguen en ${dataDir})` +
    `${passwordHidden ? "; la contraseña no se muestra: escríbala en lugar de ***" : ""}:\n` +
    `  ${command}\n` +
    `La base embebida (${dataDir}/pglite) no se modificó más allá de sus migraciones; bórrela cuando ya no la necesite.`,
} as const;

/** Backups (`npm run backup`/`restore`, the nightly job, «Respaldar ahora»): server/cli/backups.ts. */
export const backupMessages = {
  written: (file: string, bytes: number) => `Respaldo escrito en ${file} (${bytes} bytes).`,
  writtenByServer: (file: string, bytes: number) =>
    `Respaldo escrito en ${file} (${bytes} bytes) por el servidor SIA en marcha, sin detenerlo.`,
  restored: (file: string) => `Base de datos y archivos restaurados desde ${file}.`,
  missingIn: "Falta el archivo de respaldo (--in archivo).",
  missingFile: (file: string) => `No existe el respaldo ${file}.`,
  noEmbedded: (dataDir: string) => `No hay una base de datos embebida en ${dataDir}.`,
  inUse: (dataDir: string, what: string) =>
    `La carpeta de datos ${dataDir} está en uso por un servidor SIA: deténgalo antes de ${what}.`,
  serverUnreachable: (dataDir: string) =>
    `La carpeta de datos ${dataDir} está en uso por un servidor SIA que no atendió la petición de respaldo: revise que esté en marcha o deténgalo y repita.`,
  serverRefused: (reason: string) => `El servidor SIA no pudo respaldar: ${reason}`,
  failed: (reason: string) => `El respaldo falló: ${reason}`,
  restoreFailed: (reason: string) => `La restauración falló: ${reason}`,
  damaged: (file: string, reason: string) =>
    `El respaldo ${file} está dañado o no es un respaldo de SIA (${reason}); no se cambió nada.`,
  badManifest: (file: string) => `El respaldo ${file} no trae un índice válido (manifest.json); no se cambió nada.`,
  badChecksum: (file: string, entry: string) =>
    `El respaldo ${file} está dañado: ${entry} no coincide con su suma de verificación; no se cambió nada.`,
  otherKind: (file: string, kind: string) =>
    kind === "postgresql"
      ? `El respaldo ${file} es de PostgreSQL y esta instalación usa la base embebida: defina DATABASE_URL para restaurarlo.`
      : `El respaldo ${file} es de la base embebida y esta instalación usa PostgreSQL: restáurelo sin DATABASE_URL y use npm run move-to-postgres.`,
  notLoaded: (file: string, reason: string) => `El respaldo ${file} no se pudo cargar: ${reason}; no se cambió nada.`,
  filesNotPlaced: (reason: string) =>
    `La base de datos se restauró pero los archivos no se pudieron poner en su lugar (${reason}); los archivos anteriores se conservaron.`,
  jobFailed: (reason: string) => `falló: ${reason}; se intentará de nuevo la próxima noche (o use «Respaldar ahora»)`,
  jobWritten: (name: string, removed: number) =>
    removed === 0
      ? `se escribió ${name}`
      : `se escribió ${name} y se ${removed === 1 ? "borró 1 respaldo antiguo" : `borraron ${removed} respaldos antiguos`}`,
  backupBusy: "Ya se está escribiendo un respaldo; intente de nuevo en un momento.",
  backupFailed: (reason: string) => `No se pudo escribir el respaldo: ${reason}`,
  seeLog: "el servidor no pudo escribir el archivo (el registro del servidor dice por qué)",
  backupDone: (name: string) => `Respaldo escrito: ${name}`,
  pgInUse: (connections: number) =>
    `La base de datos tiene ${connections === 1 ? "1 conexión abierta" : `${connections} conexiones abiertas`} (¿un servidor SIA en marcha?): deténgalo antes de restaurar.`,
  backupDirNotFolder: (dir: string) =>
    `BACKUP_DIR: ${dir} no es una carpeta; indique una carpeta (o deje BACKUP_DIR vacío para usar DATA_DIR/respaldos).`,
  backupDirNotWritable: (dir: string) =>
    `BACKUP_DIR: el servidor no puede crear ni escribir la carpeta ${dir}; indique una en la que pueda escribir.`,
  listFailed: "No se pudo leer la carpeta de respaldos (BACKUP_DIR): revise que sea una carpeta que el servidor pueda leer.",
} as const;
