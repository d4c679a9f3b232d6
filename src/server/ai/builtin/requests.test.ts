import { describe, expect, it } from "vitest";
import { normalize } from "../builtin-language";
import { isWriteRequest } from "./requests";

describe("isWriteRequest", () => {
  it.each([
    ["delete all orders", true],
    ["Lösche alle Bestellungen", true],
    ["borra todos los pedidos", true],
    ["Please remove the cancelled orders", true],
    ["update the status of order 5 to shipped", true],
    ["insert a new customer named Ann", true],
    ["drop the orders table", true],
    ["Can you change the price of Electronics item 01?", true],
    ["Bitte aktualisiere den Status der Bestellung 7", true],
    ["¿Puedes eliminar los clientes de Alemania?", true],
    ["DELETE FROM orders WHERE 1=1", true],
    ["show revenue; drop table orders", true],
    ["why did revenue drop in February 2025?", false],
    ["how did orders change by quarter", false],
    ["cancelled orders by month", false],
    ["revenue by country", false],
    ["Umsatz nach Land im letzten Quartal", false],
    ["pedidos por estado", false],
    ["total revenue", false],
  ])("%s → %s", (question, expected) => expect(isWriteRequest(normalize(question))).toBe(expected));
});
