/**
 * The application's complete Spanish (Mexico) catalogue: react-admin's own messages (`ra.*`),
 * resource and field labels (`resources.*`, SPEC §3) and the app's own UI texts (`sia.*`).
 *
 * Resource names are pluralised for polyglot (`singular |||| plural`): react-admin asks for
 * smart_count 1 on create/edit/show titles and 2 on list titles and menu entries.
 */
import { raSpanish } from "./ra-es";

/** Fields every resource shares (server timestamps and primary key). */
const common = {
  id: "ID",
  created_at: "Fecha de creación",
  updated_at: "Fecha de actualización",
} as const;

const driveFields = {
  drive_root_id: "Carpeta en el drive",
  drive_root_url: "Carpeta en el drive",
} as const;

export const resources = {
  clients: {
    name: "Cliente |||| Clientes",
    fields: {
      ...common,
      ...driveFields,
      name: "Nombre",
      client_code: "Código",
      rfc: "RFC",
      complete_name: "Razón social",
      email: "Correo electrónico",
      is_production_ready: "Listo para producción",
      was_prospect: "Fue prospecto",
      converted_to_prospect_by: "Convertido por",
      client_group_id: "Grupo de clientes",
      client_product_catalogs: "Productos",
      client_product_catalogs_attributes: "Productos",
      product_catalog_id: "Producto",
      product_catalog_name: "Producto",
      annual_support_hours: "Horas de soporte anuales",
    },
  },
  prospects: {
    name: "Prospecto |||| Prospectos",
    fields: {
      ...common,
      ...driveFields,
      name: "Nombre",
    },
  },
  client_groups: {
    name: "Grupo de clientes |||| Grupos de clientes",
    fields: {
      ...common,
      name: "Nombre",
      clients: "Clientes",
      clients_count: "Clientes",
    },
  },
  users: {
    name: "Usuario |||| Usuarios",
    fields: {
      ...common,
      name: "Nombre",
      email: "Correo electrónico",
      administrator_role: "Administrador",
      operator_role: "Operador",
      finance_role: "Finanzas",
      can_chat: "Puede usar el chat",
      azure_token: "Token de Azure DevOps",
      google_id: "Cuenta de Google",
      password: "Contraseña",
      password_confirmation: "Confirmar contraseña",
      employee: "Empleado",
      role: "Rol",
    },
  },
  employees: {
    name: "Empleado |||| Empleados",
    fields: {
      ...common,
      name: "Nombre",
      employee_code: "Número de empleado",
      user_id: "Usuario",
      is_rape: "Responsable (RAPE)",
      is_admin_group: "Grupo administrativo",
      is_active: "Activo",
      workspace_id: "Espacio de trabajo",
      employee_position_id: "Puesto",
      assignable: "Asignable",
    },
  },
  employee_positions: {
    name: "Puesto |||| Puestos",
    fields: {
      ...common,
      name: "Nombre",
    },
  },
  workspaces: {
    name: "Espacio de trabajo |||| Espacios de trabajo",
    fields: {
      ...common,
      name: "Nombre",
      is_notifiable: "Recibe notificaciones",
      employees: "Empleados",
      bosses_workspaces: "Jefes del espacio de trabajo",
      employee_id: "Empleado",
      employee: "Empleado",
    },
  },
  assignments: {
    name: "Asignación |||| Asignaciones",
    fields: {
      ...common,
      employee_id: "Empleado",
      client_id: "Cliente",
      product_catalog_id: "Producto",
      start_on: "Fecha de inicio",
      end_on: "Fecha de fin",
      employee_name: "Empleado",
      product_name: "Producto",
      client_name: "Cliente",
      duration_days: "Duración (días)",
    },
  },
  holydays: {
    name: "Día festivo |||| Días festivos",
    fields: {
      ...common,
      date: "Fecha",
      name: "Descripción",
    },
  },
  products: {
    name: "Producto |||| Catálogo de productos",
    fields: {
      ...common,
      product_code: "Código",
      name: "Nombre",
      application_id: "ID de la aplicación",
      employee_id: "Responsable",
      employee_name: "Responsable",
      brochure_url: "Folleto",
      brochure_id: "ID del folleto",
      form_url: "Formulario",
      form_id: "ID del formulario",
      product_category: "Categoría",
      is_selectable: "Seleccionable en actividades",
    },
  },
  app_licenses: {
    name: "Licencia |||| Licencias",
    fields: {
      ...common,
      client_id: "Cliente",
      entity_name: "Nombre de la entidad",
      entity_rfc: "RFC de la entidad",
      environment: "Ambiente",
      num_licenses: "Número de licencias",
      license_valid_until: "Vigencia",
      license_type: "Tipo de licencia",
      has_mesa_electronica_license_key: "Clave de licencia de Mesa Electrónica",
      product_catalog_id: "Producto",
      modules: "Módulos",
      is_active: "Activa",
      client_name: "Cliente",
      product_name: "Producto",
    },
  },
  estimated_work_hours: {
    name: "Horas estimadas |||| Horas estimadas",
    fields: {
      ...common,
      estimated_hours: "Horas estimadas",
      project_id: "Proyecto",
      employee_position: "Puesto",
      employee_position_id: "Puesto",
    },
  },
  project_types: {
    name: "Tipo de proyecto |||| Tipos de proyecto",
    fields: {
      ...common,
      name: "Nombre",
      color_tag: "Color",
    },
  },
  activity_type_catalogs: {
    name: "Tipo de actividad |||| Tipos de actividad",
    fields: {
      ...common,
      code: "Clave",
      name: "Nombre",
    },
  },
  app_settings: {
    name: "Configuración |||| Configuración",
    fields: {
      ...common,
      default_customer_id: "Cliente predeterminado",
      default_customer_name: "Cliente predeterminado",
      default_workspace_id: "Espacio de trabajo predeterminado",
      support_excluded_customer_id: "Cliente excluido de soporte",
      default_workspace_name: "Espacio de trabajo predeterminado",
      support_excluded_customer_name: "Cliente excluido de soporte",
    },
  },
  projects: {
    name: "Proyecto |||| Proyectos",
    fields: {
      ...common,
      ...driveFields,
      project_code: "Código",
      name: "Nombre",
      project_date: "Fecha del proyecto",
      eta: "Fecha estimada de entrega",
      audit_comment: "Comentario",
      client_id: "Cliente",
      project_type_catalog_id: "Tipo de proyecto",
      product_catalog_id: "Producto",
      rape_id: "Responsable (RAPE)",
      pm_id: "Líder de proyecto",
      state: "Estado",
      permitted_events: "Acciones disponibles",
      invoice_action: "Facturación",
      aasm_statuses_with_i18n: "Estados",
      estimate_hours_needed: "Requiere horas estimadas",
      color_tag: "Color",
    },
  },
  invoices: {
    name: "Factura |||| Facturas",
    fields: {
      ...common,
      folio: "Folio",
      date_of_invoice: "Fecha de facturación",
      percentage_value: "Porcentaje",
      state: "Estado",
      audit_comment: "Comentario",
      project_id: "Proyecto",
    },
  },
  quotations: {
    name: "Cotización |||| Cotizaciones",
    fields: {
      ...common,
      contact_name: "Nombre del contacto",
      prospect_id: "Prospecto",
      prospect: "Prospecto",
      product_catalog_id: "Producto",
      product_catalog: "Producto",
      event_url: "Evento en el calendario",
      event_id: "ID del evento",
      audit_comment: "Comentario",
      state: "Estado",
      permitted_events: "Acciones disponibles",
      client_hash: "Datos del cliente",
      project_hash: "Datos del proyecto",
    },
  },
  activities: {
    name: "Actividad |||| Actividades",
    fields: {
      ...common,
      employee_id: "Empleado",
      begins_at: "Inicio",
      ends_at: "Fin",
      description: "Descripción",
      activity_type_catalog_id: "Tipo de actividad",
      action_type: "Tipo",
      ownerable_id: "Cliente o prospecto",
      ownerable_type: "Tipo de cliente",
      project_id: "Proyecto",
      project_code: "Código del proyecto",
      product_catalog_id: "Producto",
      short_title: "Título corto",
      ticket_id: "Ticket",
      ticket_name: "Nombre del ticket",
      is_favorite: "Favorita",
      update_by: "Actualizada por",
      is_editable: "Editable",
      is_month_frozen: "Mes cerrado",
      google_calendar_id: "ID en Google Calendar",
      google_calendar_event: "Evento de Google Calendar",
      project: "Proyecto",
    },
  },
  notifications: {
    name: "Notificación |||| Notificaciones",
    fields: {
      ...common,
      message: "Mensaje",
      author_name: "Autor",
      user_id: "Usuario",
      workspace_id: "Espacio de trabajo",
    },
  },
} as const;

/** The app's own texts (menus, pages, filters). */
export const sia = {
  menu: {
    activities: "Actividades",
    clients: "Clientes",
    prospects: "Prospectos",
    client_groups: "Grupos de clientes",
    quotations: "Cotizaciones",
    projects: "Proyectos",
    employees: "Empleados",
    users: "Usuarios",
    workspaces: "Espacios de trabajo",
    assignments: "Asignaciones",
    holydays: "Días festivos",
    products: "Catálogo de productos",
    app_licenses: "Licencias",
    project_types: "Tipos de proyecto",
    activity_type_catalogs: "Tipos de actividad",
    app_settings: "Configuración",
    reporting: "Reportes",
    changelog: "Historial de cambios",
  },
  under_construction: "Esta sección está en construcción",
  sign_in: {
    title: "Iniciar sesión",
    email: "Correo electrónico",
    password: "Contraseña",
    submit: "Entrar",
  },
  not_found: {
    title: "Página no encontrada",
    message: "La página que busca no existe o fue movida.",
    back_home: "Volver al inicio",
  },
  no_employee: "Favor de ponerse en contacto con RH para que lo den de alta como empleado",
  app_bar: {
    version: "Versión %{version}",
  },
  filters: {
    all: "Todos",
    administrator: "Administrador",
    operator: "Operador",
    finance: "Finanzas",
  },
} as const;

export const es = {
  ...raSpanish,
  // React-admin names two resources after their SPEC §2 path (src/core/resources.ts): same labels.
  resources: { ...resources, productCatalogs: resources.products, client_group: resources.client_groups },
  sia,
};

export type SiaMessages = typeof es;

export default es;
