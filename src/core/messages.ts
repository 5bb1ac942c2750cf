/**
 * The product's own Spanish texts (SPEC §8 wording, with the original's obvious typos corrected).
 * Server errors and browser toasts both read from here, so a message exists once.
 */
export const messages = {
  unexpected: "Hubo un error inesperado. Favor de contactar al administrador del sistema",
  unauthenticated: "Sin Autenticación",
  forbidden: "Error de Permisos",
  notFound: "No se encontró el registro solicitado",
  routeNotFound: "La ruta solicitada no existe",
  paramError: (field: string) => `Error en los parametros ${field}`,
  invalidCredentials: "Credenciales Invalidas",
  tooManyAttempts: "Demasiados intentos de inicio de sesión. Espere unos minutos e intente de nuevo.",
  originRejected: "Origen de la solicitud no permitido",
  bodyTooLarge: "La solicitud es demasiado grande",
  invalidJson: "El cuerpo de la solicitud no es un JSON válido",
  noEmployee: "Favor de ponerse en contacto con RH para que lo den de alta como empleado",
  required: "es obligatorio",
  invalidEmail: "no es un correo válido",
  invalidValue: "no es válido",
  alreadyTaken: "ya está en uso",
  tooLong: (max: number) => `es demasiado largo (máximo ${max} caracteres)`,
  tooShort: (min: number) => `es demasiado corto (mínimo ${min} caracteres)`,
  mustBeNumber: "debe ser un número",
  mustBePositive: "debe ser mayor o igual a cero",
  invalidReference: "no existe",
  invalidDate: "no es una fecha válida",
  passwordMismatch: "no coincide con la contraseña",
  clientCreated: "Cliente Creado",
  clientUpdated: "Cliente Actualizado",
  clientFolderRequired: "Favor de seleccionar una ruta para el cliente",
  driveUrlInvalid: "Favor de verificar la ruta del proyecto.",
  deleteRefused: (what: string) => `No se puede eliminar: ${what}`,
  clientInUse: "el cliente tiene proyectos, actividades, licencias o asignaciones registradas",
  inUse: "otros registros dependen de él",
  duplicateProduct: "El producto está repetido en el cliente",
  underConstruction: "Esta sección está en construcción",
  saved: "Elemento guardado",
  deleted: "Elemento eliminado",
} as const;

export type Messages = typeof messages;
