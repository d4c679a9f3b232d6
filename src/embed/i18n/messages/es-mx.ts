import type { MessageCatalog } from "./en-us";
import { esES } from "./es-es";

/** Mexican Spanish: shares most strings with es-ES, differs where usage does. */
export const esMX: MessageCatalog = {
  ...esES,
  "error.generic": "Algo salió mal",
  "error.SessionExpired": "La sesión expiró",
  "error.AiQueryFailed": "No se pudo responder la pregunta",
  "session.expiring": "Tu sesión expira en {seconds} segundos.",
  "session.expired": "Tu sesión expiró. Vuelve a cargar la página para continuar.",
  notFound: "Este contenido no existe o fue eliminado.",
  widgetFailed: "No se pudo cargar este widget.",
  clear: "Limpiar",
  // es-ES addresses the viewer as "usted"; Mexico's product language says "tú".
  forbidden: "No tienes acceso a este contenido.",
  "login.title": "Inicia sesión para continuar",
  "login.hint": "Usa tu cuenta de la plataforma para ver este contenido.",
  "login.linkFailed": "Este enlace de acceso ya se usó o expiró. Inicia sesión con tu contraseña o pide un enlace nuevo a un administrador.",
  "session.invalidHint": "Este enlace expiró o ya se usó. Pide uno nuevo al responsable de la página.",
};
