import type { SupportedLocale } from "../locales";
import { deDE } from "./de-de";
import { enUS, type MessageCatalog } from "./en-us";
import { esES } from "./es-es";
import { esMX } from "./es-mx";
import { frFR } from "./fr-fr";
import { itIT } from "./it-it";
import { jaJP } from "./ja-jp";
import { nbNO } from "./nb-no";
import { ptBR } from "./pt-br";
import { ptPT } from "./pt-pt";
import { svSE } from "./sv-se";
import { viVN } from "./vi-vn";

export type { MessageCatalog, MessageKey } from "./en-us";

/** Message catalogs of every supported locale. */
export const MESSAGE_CATALOGS: Record<SupportedLocale, MessageCatalog> = {
  "en-US": enUS,
  "de-DE": deDE,
  "es-ES": esES,
  "es-MX": esMX,
  "fr-FR": frFR,
  "it-IT": itIT,
  "ja-JP": jaJP,
  "nb-NO": nbNO,
  "pt-BR": ptBR,
  "pt-PT": ptPT,
  "sv-SE": svSE,
  "vi-VN": viVN,
};
