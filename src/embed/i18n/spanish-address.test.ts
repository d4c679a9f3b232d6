import { describe, expect, it } from "vitest";
import { CHAT_MESSAGES } from "../chat/chat-messages";
import { APP_MESSAGES } from "../surfaces/app/app-messages";
import { FORMULA_PROBLEM_MESSAGES } from "../surfaces/app/report-formula-messages";
import { MESSAGE_CATALOGS } from "./messages";

/**
 * One form of address per Spanish locale: es-ES says "usted" (the app's, the chat's and the
 * chat answers' own form), es-MX says "tú". A string of the other form is a mixed screen ("Sus
 * libros de trabajo" above "una vista de tus datos").
 */
// Third-person forms that read alike ("usa", "añade": "uses", "is added") are left out.
const TU =
  /\b(tus?|contigo|tienes|puedes|elige|escribe|arrastra|armas|pon|ciérralo|termínalo|únelas|compruébalo|fíltrala|querías|inicia|recarga|pide|prueba|marca|activa)\b/i;
const USTED =
  /\b(usted|arma la|ponga|ciérrelo|termínelo|únalas|compruébelo|fíltrela|quiso|elija|escriba|arrastre|añada|inicie|recargue|pida|pruebe|marque|active)\b/i;

const strings = (locale: "es-ES" | "es-MX") => {
  const formulas = FORMULA_PROBLEM_MESSAGES[locale] ?? FORMULA_PROBLEM_MESSAGES.es!;
  return [MESSAGE_CATALOGS[locale], APP_MESSAGES[locale], CHAT_MESSAGES[locale], formulas.problems, { suggestion: formulas.suggestion }].flatMap((catalog) =>
    Object.entries(catalog as Record<string, string>),
  );
};

describe("Spanish forms of address", () => {
  it("es-ES addresses the viewer as usted throughout", () => {
    expect(strings("es-ES").filter(([, text]) => TU.test(text))).toEqual([]);
  });
  it("es-MX addresses the viewer as tú throughout", () => {
    expect(strings("es-MX").filter(([, text]) => USTED.test(text))).toEqual([]);
  });
});
