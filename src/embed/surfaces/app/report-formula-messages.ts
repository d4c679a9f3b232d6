/**
 * The formula checker's problems (src/schema/formula, `FormulaError.code` and `params`) in the
 * app's words: one sentence per code in English, German and Spanish, with the member names,
 * operators, numbers, types and tokens of the formula put in. A locale without a catalogue, or a
 * code a catalogue lacks, reads the checker's English `detail` (the API's words).
 */
import { shippedLocale } from "../../chat/chat-messages";
import type { FormulaType } from "../../../schema/formula/checker";
import type { FormulaProblem, FormulaProblemCode, FormulaTokenKind } from "../../../schema/formula/formula-error";

export interface FormulaProblemCatalog {
  /** A sentence per problem code; `{name}` and the like are the problem's parameters. */
  problems: Partial<Record<FormulaProblemCode, string>>;
  /** The types a formula's parts hold, as `{…Type}` and `{types}` name them. */
  types: Record<FormulaType, string>;
  /** The token found, as `{token}` names it; `{text}` is the token as written. */
  tokens: Record<FormulaTokenKind, string>;
  /** Added to a sentence whose problem comes with a near name (`params.suggestion`). */
  suggestion: string;
}

const en: FormulaProblemCatalog = {
  problems: {
    numberOutOfRange: "The number {number} is out of range: numbers lie within ±{max}",
    numberBeforeName: "A number runs into a name; put an operator between them",
    doubleQuotedText: "Text is written in single quotes ('returned'); member names are not quoted",
    unexpectedCharacter: "Unexpected character “{character}”",
    unknownEscape: "Unknown escape in text: use \\', '', \\\\, \\n or \\t",
    textEndsAtLineEnd: "The text ends at the end of the line: close it with '",
    controlCharacterInText: "A control character in text: write \\n or \\t",
    unclosedText: "The text is not closed: end it with '",
    tooLong: "A formula has at most {max} characters",
    empty: "The formula is empty",
    operatorExpected: "Unexpected {token}: an operator (+ - * / = and or …) or the end of the formula was expected",
    chainedComparison: "Comparisons do not chain: join them with and (a < b and b < c)",
    nullNotValue: "null is not a value here: test it with is null / is not null, replace it with coalesce(x, 0)",
    valueExpected: "Unexpected {token}: a value, a member or ( was expected",
    endsEarly: "The formula ends too early: a value, a member or ( was expected",
    memberNameAfterDot: "A member name was expected after the dot",
    tooDeep: "A formula nests at most {max} levels of parentheses, calls and signs",
    tooManyParts: "A formula has at most {max} values, members and operators",
    nullExpectedAfterIs: "null was expected after is (is null, is not null), not {token}",
    parenthesisExpectedAfterIn: "( was expected after in (status in ('returned', 'lost')), not {token}",
    inListNotClosed: ") or , was expected in the list after in, not {token}",
    parenthesisNotClosed: ") was expected to close the ( at character {at}, not {token}",
    callNotClosed: ") was expected to close {name}(, not {token}",
    noMembers: "A formula names at least one member (a measure or a dimension)",
    timeResult: "A formula gives a number, text or true/false, not a time",
    aggregateNotNumber: "A formula over measures gives a number; this one gives {foundType}",
    compareTypes: "“{operator}” compares {leftType} with {rightType}",
    orderBooleans: "“{operator}” does not order true/false; use = or !=",
    inListLiterals: "The list after in holds numbers, text or true/false written out",
    inListTypes: "in compares {leftType} with {rightType}",
    whereInScalar: "{name}() takes no where; where filters measures and aggregates",
    measureTakesNoArguments: "{name} is a measure: it takes no arguments; filter it with {name}(where …)",
    unknownFunction: "Unknown function “{name}”",
    missingFilteredMeasure: "{name}(where …) filters the measure {name}, which this view does not have; {name}(x where …) aggregates a dimension x",
    dimensionFiltered: "{name} is a dimension; only a measure is filtered with (where …)",
    whereNamesMeasures: "A where condition is read row by row: it names dimensions, not measures",
    oneArgument: "{name}() takes one argument",
    countArguments: "count() takes one argument (or a measure filtered: count(where …))",
    nestedAggregates: "Aggregates do not nest: {name}() adds up dimensions, row by row",
    argumentCount: "{name}() takes {count} arguments",
    argumentRange: "{name}() takes {min} to {max} arguments",
    functionTypes: "{name}() takes {types}",
    functionMixesTypes: "{name}() mixes {firstType} with {otherType}",
    roundDigits: "round(x, digits): digits is a whole number from 0 to {max}",
    unknownMember: "Unknown member “{name}”",
    negateNeedsNumber: "A minus sign needs a number, not {foundType}",
    notNeedsBoolean: "not needs true/false, not {foundType}",
    arithmeticNeedsNumber: "“{operator}” needs numbers, not {foundType}",
    logicalNeedsBoolean: "{operator} needs true/false, not {foundType}",
    aggregateNeedsNumber: "{name}() needs a number, not {foundType}",
    whereNeedsBoolean: "where needs a condition (true/false), not {foundType}",
    rowBesideAggregate:
      "A dimension (one value per row) stands beside a measure (one value per group): put the dimension inside an aggregate, such as sum(amount) or count(where status = 'returned')",
  },
  types: { number: "a number", string: "text", boolean: "true/false", time: "a time" },
  tokens: { number: "number", text: "text", name: "name “{text}”", keyword: "“{text}”", symbol: "“{text}”", end: "end of the formula" },
  suggestion: "; did you mean “{suggestion}”?",
};

const de: FormulaProblemCatalog = {
  problems: {
    numberOutOfRange: "Die Zahl {number} liegt außerhalb des zulässigen Bereichs: Zahlen liegen innerhalb von ±{max}",
    numberBeforeName: "Eine Zahl geht direkt in einen Namen über; setzen Sie einen Operator dazwischen",
    doubleQuotedText: "Text steht in einfachen Anführungszeichen ('returned'); Elementnamen stehen nicht in Anführungszeichen",
    unexpectedCharacter: "Unerwartetes Zeichen „{character}“",
    unknownEscape: "Unbekannte Escape-Sequenz im Text: Verwenden Sie \\', '', \\\\, \\n oder \\t",
    textEndsAtLineEnd: "Der Text endet am Zeilenende: Schließen Sie ihn mit ' ab",
    controlCharacterInText: "Ein Steuerzeichen steht im Text: Schreiben Sie \\n oder \\t",
    unclosedText: "Der Text ist nicht geschlossen: Beenden Sie ihn mit '",
    tooLong: "Eine Formel hat höchstens {max} Zeichen",
    empty: "Die Formel ist leer",
    operatorExpected: "Hier steht {token}, erwartet wird aber ein Operator (+ - * / = and or …) oder das Ende der Formel",
    chainedComparison: "Vergleiche lassen sich nicht verketten: Verbinden Sie sie mit and (a < b and b < c)",
    nullNotValue: "null ist hier kein Wert: Prüfen Sie mit is null / is not null oder ersetzen Sie es durch coalesce(x, 0)",
    valueExpected: "Hier steht {token}, erwartet wird aber ein Wert, ein Element oder eine öffnende Klammer „(“",
    endsEarly: "Die Formel endet zu früh: Erwartet wird ein Wert, ein Element oder eine öffnende Klammer „(“",
    memberNameAfterDot: "Nach dem Punkt wird ein Elementname erwartet",
    tooDeep: "Eine Formel hat höchstens {max} verschachtelte Ebenen aus Klammern, Funktionsaufrufen und Vorzeichen",
    tooManyParts: "Eine Formel hat höchstens {max} Werte, Elemente und Operatoren",
    nullExpectedAfterIs: "Nach is wird null erwartet (is null, is not null), stattdessen steht hier {token}",
    parenthesisExpectedAfterIn: "Nach in wird „(“ erwartet (status in ('returned', 'lost')), stattdessen steht hier {token}",
    inListNotClosed: "In der Liste nach in wird „)“ oder „,“ erwartet, stattdessen steht hier {token}",
    parenthesisNotClosed: "Erwartet wird „)“, um die Klammer „(“ bei Zeichen {at} zu schließen; stattdessen steht hier {token}",
    callNotClosed: "Erwartet wird „)“, um {name}( zu schließen; stattdessen steht hier {token}",
    noMembers: "Eine Formel nennt mindestens ein Element (eine Kennzahl oder eine Dimension)",
    timeResult: "Eine Formel ergibt eine Zahl, einen Text oder Wahr/Falsch, keinen Zeitpunkt",
    aggregateNotNumber: "Eine Formel über Kennzahlen ergibt eine Zahl; diese ergibt einen Wert vom Typ {foundType}",
    compareTypes: "„{operator}“ vergleicht einen Wert vom Typ {leftType} mit einem Wert vom Typ {rightType}",
    orderBooleans: "„{operator}“ ordnet keine Wahrheitswerte (Wahr/Falsch); verwenden Sie = oder !=",
    inListLiterals: "Die Liste nach in enthält ausgeschriebene Zahlen, Texte oder Wahrheitswerte (true/false)",
    inListTypes: "in vergleicht einen Wert vom Typ {leftType} mit einem Wert vom Typ {rightType}",
    whereInScalar: "{name}() nimmt kein where; where filtert Kennzahlen und Aggregate",
    measureTakesNoArguments: "{name} ist eine Kennzahl und nimmt keine Argumente; filtern Sie sie mit {name}(where …)",
    unknownFunction: "Unbekannte Funktion „{name}“",
    missingFilteredMeasure: "{name}(where …) filtert die Kennzahl {name}, die es in dieser Ansicht nicht gibt; {name}(x where …) aggregiert eine Dimension x",
    dimensionFiltered: "{name} ist eine Dimension; nur eine Kennzahl wird mit (where …) gefiltert",
    whereNamesMeasures: "Eine where-Bedingung wird Zeile für Zeile gelesen: Sie nennt Dimensionen, keine Kennzahlen",
    oneArgument: "{name}() nimmt genau ein Argument",
    countArguments: "count() nimmt genau ein Argument (oder eine gefilterte Kennzahl: count(where …))",
    nestedAggregates: "Aggregate lassen sich nicht verschachteln: {name}() fasst Dimensionen Zeile für Zeile zusammen",
    argumentCount: "{name}() nimmt genau {count} Argumente",
    argumentRange: "{name}() nimmt {min} bis {max} Argumente",
    functionTypes: "{name}() nimmt Werte vom Typ {types}",
    functionMixesTypes: "{name}() mischt Werte vom Typ {firstType} mit Werten vom Typ {otherType}",
    roundDigits: "round(x, Stellen): Stellen ist eine ganze Zahl von 0 bis {max}",
    unknownMember: "Unbekanntes Element „{name}“",
    negateNeedsNumber: "Ein Minuszeichen braucht eine Zahl, keinen Wert vom Typ {foundType}",
    notNeedsBoolean: "not braucht einen Wahrheitswert, keinen Wert vom Typ {foundType}",
    arithmeticNeedsNumber: "„{operator}“ braucht Zahlen, keinen Wert vom Typ {foundType}",
    logicalNeedsBoolean: "{operator} braucht Wahrheitswerte, keinen Wert vom Typ {foundType}",
    aggregateNeedsNumber: "{name}() braucht eine Zahl, keinen Wert vom Typ {foundType}",
    whereNeedsBoolean: "where braucht eine Bedingung (Wahr/Falsch), keinen Wert vom Typ {foundType}",
    rowBesideAggregate:
      "Eine Dimension (ein Wert pro Zeile) steht neben einer Kennzahl (ein Wert pro Gruppe): Setzen Sie die Dimension in ein Aggregat, etwa sum(amount) oder count(where status = 'returned')",
  },
  types: { number: "Zahl", string: "Text", boolean: "Wahr/Falsch", time: "Zeitpunkt" },
  tokens: { number: "eine Zahl", text: "ein Text", name: "der Name „{text}“", keyword: "„{text}“", symbol: "„{text}“", end: "das Ende der Formel" },
  suggestion: "; meinten Sie „{suggestion}“?",
};

const es: FormulaProblemCatalog = {
  problems: {
    numberOutOfRange: "El número {number} está fuera de rango: los números están dentro de ±{max}",
    numberBeforeName: "Un número va pegado a un nombre; ponga un operador entre ellos",
    doubleQuotedText: "El texto va entre comillas simples ('returned'); los nombres de los miembros no van entre comillas",
    unexpectedCharacter: "Carácter inesperado «{character}»",
    unknownEscape: "Secuencia de escape desconocida en el texto: use \\', '', \\\\, \\n o \\t",
    textEndsAtLineEnd: "El texto termina al final de la línea: ciérrelo con '",
    controlCharacterInText: "Hay un carácter de control en el texto: escriba \\n o \\t",
    unclosedText: "El texto no está cerrado: termínelo con '",
    tooLong: "Una fórmula tiene como máximo {max} caracteres",
    empty: "La fórmula está vacía",
    operatorExpected: "Se encontró {token}, pero se esperaba un operador (+ - * / = and or …) o el final de la fórmula",
    chainedComparison: "Las comparaciones no se encadenan: únalas con and (a < b and b < c)",
    nullNotValue: "null no es un valor aquí: compruébelo con is null / is not null o sustitúyalo por coalesce(x, 0)",
    valueExpected: "Se encontró {token}, pero se esperaba un valor, un miembro o un paréntesis «(»",
    endsEarly: "La fórmula termina antes de tiempo: se esperaba un valor, un miembro o un paréntesis «(»",
    memberNameAfterDot: "Se esperaba el nombre de un miembro después del punto",
    tooDeep: "Una fórmula anida como máximo {max} niveles de paréntesis, llamadas y signos",
    tooManyParts: "Una fórmula tiene como máximo {max} valores, miembros y operadores",
    nullExpectedAfterIs: "Se esperaba null después de is (is null, is not null), pero se encontró {token}",
    parenthesisExpectedAfterIn: "Se esperaba «(» después de in (status in ('returned', 'lost')), pero se encontró {token}",
    inListNotClosed: "Se esperaba «)» o «,» en la lista después de in, pero se encontró {token}",
    parenthesisNotClosed: "Se esperaba «)» para cerrar el paréntesis «(» del carácter {at}, pero se encontró {token}",
    callNotClosed: "Se esperaba «)» para cerrar {name}(, pero se encontró {token}",
    noMembers: "Una fórmula nombra al menos un miembro (una medida o una dimensión)",
    timeResult: "Una fórmula da un número, un texto o verdadero/falso, no una fecha",
    aggregateNotNumber: "Una fórmula sobre medidas da un número; esta da un valor de tipo {foundType}",
    compareTypes: "«{operator}» compara un valor de tipo {leftType} con uno de tipo {rightType}",
    orderBooleans: "«{operator}» no ordena valores verdadero/falso; use = o !=",
    inListLiterals: "La lista después de in contiene números, textos o verdadero/falso escritos tal cual",
    inListTypes: "in compara un valor de tipo {leftType} con uno de tipo {rightType}",
    whereInScalar: "{name}() no admite where; where filtra medidas y agregados",
    measureTakesNoArguments: "{name} es una medida: no admite argumentos; fíltrela con {name}(where …)",
    unknownFunction: "Función desconocida «{name}»",
    missingFilteredMeasure: "{name}(where …) filtra la medida {name}, que esta vista no tiene; {name}(x where …) agrega una dimensión x",
    dimensionFiltered: "{name} es una dimensión; solo una medida se filtra con (where …)",
    whereNamesMeasures: "Una condición where se lee fila por fila: nombra dimensiones, no medidas",
    oneArgument: "{name}() admite un solo argumento",
    countArguments: "count() admite un solo argumento (o una medida filtrada: count(where …))",
    nestedAggregates: "Los agregados no se anidan: {name}() agrega dimensiones, fila por fila",
    argumentCount: "{name}() admite exactamente {count} argumentos",
    argumentRange: "{name}() admite de {min} a {max} argumentos",
    functionTypes: "{name}() admite valores de tipo {types}",
    functionMixesTypes: "{name}() mezcla valores de tipo {firstType} con valores de tipo {otherType}",
    roundDigits: "round(x, decimales): decimales es un número entero de 0 a {max}",
    unknownMember: "Miembro desconocido «{name}»",
    negateNeedsNumber: "Un signo menos necesita un número, no un valor de tipo {foundType}",
    notNeedsBoolean: "not necesita verdadero/falso, no un valor de tipo {foundType}",
    arithmeticNeedsNumber: "«{operator}» necesita números, no un valor de tipo {foundType}",
    logicalNeedsBoolean: "{operator} necesita verdadero/falso, no un valor de tipo {foundType}",
    aggregateNeedsNumber: "{name}() necesita un número, no un valor de tipo {foundType}",
    whereNeedsBoolean: "where necesita una condición (verdadero/falso), no un valor de tipo {foundType}",
    rowBesideAggregate:
      "Una dimensión (un valor por fila) está junto a una medida (un valor por grupo): ponga la dimensión dentro de un agregado, como sum(amount) o count(where status = 'returned')",
  },
  types: { number: "número", string: "texto", boolean: "verdadero/falso", time: "fecha" },
  tokens: { number: "un número", text: "un texto", name: "el nombre «{text}»", keyword: "«{text}»", symbol: "«{text}»", end: "el final de la fórmula" },
  suggestion: "; ¿quiso decir «{suggestion}»?",
};

/** Mexico's Spanish addresses the creator as "tú" (es-ES: "usted"). */
const esMX: FormulaProblemCatalog = {
  ...es,
  problems: {
    ...es.problems,
    unknownEscape: "Secuencia de escape desconocida en el texto: usa \\', '', \\\\, \\n o \\t",
    controlCharacterInText: "Hay un carácter de control en el texto: escribe \\n o \\t",
    orderBooleans: "«{operator}» no ordena valores verdadero/falso; usa = o !=",
    numberBeforeName: "Un número va pegado a un nombre; pon un operador entre ellos",
    textEndsAtLineEnd: "El texto termina al final de la línea: ciérralo con '",
    unclosedText: "El texto no está cerrado: termínalo con '",
    chainedComparison: "Las comparaciones no se encadenan: únelas con and (a < b and b < c)",
    nullNotValue: "null no es un valor aquí: compruébalo con is null / is not null o sustitúyelo por coalesce(x, 0)",
    measureTakesNoArguments: "{name} es una medida: no admite argumentos; fíltrala con {name}(where …)",
    rowBesideAggregate:
      "Una dimensión (un valor por fila) está junto a una medida (un valor por grupo): pon la dimensión dentro de un agregado, como sum(amount) o count(where status = 'returned')",
  },
  suggestion: "; ¿querías decir «{suggestion}»?",
};

/** The catalogues by language (`de` serves de-DE, de-AT, …), and by locale where one differs (es-MX). */
export const FORMULA_PROBLEM_MESSAGES: Readonly<Record<string, FormulaProblemCatalog>> = { en, de, es, "es-MX": esMX };

type ParamValue = string | number | FormulaType[] | undefined;

/** A parameter as the catalogue's language writes it: types by their names, numbers grouped. */
function paramText(key: string, value: ParamValue, catalog: FormulaProblemCatalog, locale: string): string {
  if (Array.isArray(value)) return new Intl.ListFormat(locale, { type: "disjunction" }).format(value.map((t) => catalog.types[t]));
  if (typeof value === "number") return new Intl.NumberFormat(locale).format(value);
  if (value !== undefined && key.endsWith("Type")) return catalog.types[value as FormulaType];
  return value ?? "";
}

function fill(template: string, params: Record<string, ParamValue>, catalog: FormulaProblemCatalog, locale: string): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    if (key === "token" && typeof params.token === "string") {
      return catalog.tokens[params.token as FormulaTokenKind].replace("{text}", String(params.tokenText ?? ""));
    }
    return key in params ? paramText(key, params[key], catalog, locale) : whole;
  });
}

/**
 * A checker problem in the app's locale (`lang` is the language it is written in): the
 * catalogue's sentence for its code with its parameters in place, or the English `detail` when
 * the locale has no catalogue or the catalogue not the code.
 */
export function formulaProblemText(locale: string, problem: FormulaProblem, detail: string): { text: string; lang: string } {
  const shipped = shippedLocale(locale);
  const lang = shipped.split("-")[0]!;
  const catalog = FORMULA_PROBLEM_MESSAGES[shipped] ?? FORMULA_PROBLEM_MESSAGES[lang];
  const template = catalog?.problems[problem.code];
  if (!catalog || template === undefined) return { text: detail, lang: "en" };
  const params = problem.params as Record<string, ParamValue>;
  const suggestion = typeof params.suggestion === "string" ? fill(catalog.suggestion, params, catalog, shipped) : "";
  return { text: fill(template, params, catalog, shipped) + suggestion, lang };
}
