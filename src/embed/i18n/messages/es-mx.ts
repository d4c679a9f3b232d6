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
};
