/**
 * Requests to change data ("delete all orders", "lösche alle Bestellungen", "borra todos los
 * pedidos"): the chat only reads, so these are declined before anything is looked up.
 */

/** Polite openings before an imperative ("please", "can you", "bitte", "por favor", "puedes"). */
const OPENING =
  /^(?:(?:please|pls|can you|could you|would you|will you|i want to|i d like to|i would like to|let s|lets|go ahead and|now|bitte|kannst du|konnen sie|konntest du|ich mochte|ich will|por favor|puedes|podrias|puede|podria|quiero|ahora)\s+)*/;

/** Verbs that change data, as the first word of a request (normalized: "lösche" → "losche"). */
const WRITE_VERB = new RegExp(
  "^(" +
    [
      "delete|remove|drop|truncate|update|insert|add|create|modify|alter|erase|wipe|overwrite|rename|set|change|edit|cancel|purge|clear|reset|replace|import|upload",
      "losche|loschen|losch|entferne|entfernen|andere|andern|aktualisiere|aktualisieren|fuge|fugen|einfugen|erstelle|erstellen|lege|storniere|stornieren|setze|setzen|benenne|uberschreibe|leere",
      "borra|borrar|elimina|eliminar|actualiza|actualizar|inserta|insertar|modifica|modificar|cambia|cambiar|anade|anadir|agrega|agregar|crea|crear|cancela|cancelar|quita|quitar|vacia|vaciar|renombra|sobrescribe",
    ].join("|") +
    ")\\b",
);

/** Statements that change data wherever they stand in the question. */
const WRITE_ANYWHERE =
  /\b(delete from|insert into|drop table|truncate table|alter table|update \w+ set|delete all|remove all|losche alle|loschen sie|borra todos|borra todas|borrar todos|elimina todos|elimina todas|eliminar todos)\b/;

/** Whether a normalized question asks to change data rather than read it. */
export function isWriteRequest(normalized: string): boolean {
  const rest = normalized.replace(OPENING, "");
  return WRITE_VERB.test(rest) || WRITE_ANYWHERE.test(normalized);
}
