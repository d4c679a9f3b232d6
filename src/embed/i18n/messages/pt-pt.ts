import type { MessageCatalog } from "./en-us";
import { ptBR } from "./pt-br";

/** European Portuguese: shares many strings with pt-BR, differs where usage does. */
export const ptPT: MessageCatalog = {
  ...ptBR,
  loading: "A carregar…",
  "error.generic": "Ocorreu um erro",
  "error.RenderFailed": "Não foi possível apresentar este conteúdo",
  "error.RateLimited": "Demasiados pedidos",
  "export.csv": "Transferir CSV",
  "export.xlsx": "Transferir Excel (XLSX)",
  "export.png": "Transferir imagem (PNG)",
  "export.pdf": "Transferir PDF",
  download: "Transferir",
  search: "Procurar",
  "session.expiring": "A sua sessão expira dentro de {seconds} segundos.",
  "session.expired": "A sua sessão expirou. Recarregue a página para continuar.",
  forbidden: "Não tem acesso a este conteúdo.",
  widgetFailed: "Não foi possível carregar este widget.",
  "page.next": "Página seguinte",
  poweredBy: "Desenvolvido com svc",
  "login.linkFailed": "Esta ligação de acesso já foi utilizada ou expirou. Inicie sessão com a sua palavra-passe ou peça uma nova ligação a um administrador.",
};
