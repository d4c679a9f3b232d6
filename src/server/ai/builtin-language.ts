/**
 * The words the builtin engine reads in English, German and Spanish: each language's phrases
 * are rewritten into one canonical English form (`umsatz nach land` → `revenue by country`)
 * before the question is matched against the data model, and the sentences it answers with.
 */
import type { TimePart } from "../../schema/semantic-query";
import { TIME_PART_NAMES } from "../semantic/column-labels";

export type Language = "en" | "de" | "es";
export const LANGUAGES: Language[] = ["en", "de", "es"];

/** Lower case, no accents, no punctuation except inside numbers: the form every match is made on. */
export function normalize(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9\s.-]/g, " ")
    .replace(/(?<!\d)[.-]|[.-](?!\d)/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Words that tell the languages apart (normalized). */
const MARKERS: Record<Language, string[]> = {
  en: ["by", "the", "what", "show", "how", "many", "last", "over", "time", "top", "per", "which", "revenue", "orders", "month", "year", "quarter", "and"],
  de: [
    "nach",
    "der",
    "die",
    "das",
    "im",
    "zeige",
    "wie",
    "viele",
    "letzten",
    "letztes",
    "letzte",
    "umsatz",
    "bestellungen",
    "quartal",
    "monat",
    "jahr",
    "und",
    "pro",
    "zeitverlauf",
    "welche",
    "stadte",
    "lander",
    "kunden",
    "vergleiche",
    "wachstum",
    "vergleich",
    "vorjahr",
    "jeder",
    "jede",
    "warum",
    "zwischen",
    "anteil",
    "stuck",
    "bis",
    "ohne",
    "welcher",
    "welches",
    "wochentag",
    "war",
    "am",
  ],
  es: [
    "por",
    "los",
    "las",
    "el",
    "del",
    "muestra",
    "cuantos",
    "cuantas",
    "ultimo",
    "ultimos",
    "ultima",
    "ingresos",
    "ventas",
    "pedidos",
    "trimestre",
    "mes",
    "ano",
    "ciudades",
    "paises",
    "clientes",
    "compara",
    "principales",
    "crecimiento",
    "frente",
    "interanual",
    "producto",
    "productos",
    "categoria",
    "cada",
    "mas",
    "entre",
    "porque",
    "unidades",
    "sin",
  ],
};

/** The question's language: the one whose marker words it uses most; the surface's locale breaks ties. */
export function detectLanguage(normalized: string, locale: string): Language {
  const words = normalized.split(" ");
  const fallback = (LANGUAGES as string[]).includes(locale.slice(0, 2)) ? (locale.slice(0, 2) as Language) : "en";
  let best: Language = fallback;
  let bestScore = 0;
  for (const lang of LANGUAGES) {
    const score = words.filter((w) => MARKERS[lang].includes(w)).length;
    if (score > bestScore || (score === bestScore && lang === fallback)) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}

// Phrase → canonical English, per language; longer phrases first (applied in order).
/** Ordinal words of the quarters (normalized), in the three languages. */
/** Number words of "two years ago" in each language, as digits. */
const NUMBER_WORDS: Record<string, string> = {
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  ten: "10",
  zwei: "2",
  drei: "3",
  vier: "4",
  funf: "5",
  zehn: "10",
  dos: "2",
  tres: "3",
  cuatro: "4",
  cinco: "5",
  diez: "10",
};
const DE_UNITS: Record<string, string> = { jahren: "years", quartalen: "quarters", monaten: "months", wochen: "weeks", tagen: "days" };
const ES_UNITS: Record<string, string> = { anos: "years", trimestres: "quarters", meses: "months", semanas: "weeks", dias: "days" };

const ORDINALS: Record<string, number> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
  erst: 1,
  zweit: 2,
  dritt: 3,
  viert: 4,
  primer: 1,
  primero: 1,
  segundo: 2,
  tercer: 3,
  tercero: 3,
  cuarto: 4,
};

type Rewrite = [RegExp, string | ((match: string, word: string, second: string) => string)];

const REWRITES: Record<Language, Rewrite[]> = {
  en: [
    [/\b(?:the )?(first|1st|second|2nd|third|3rd|fourth|4th) quarter(?: of)?\b/g, (_: string, n: string) => `q${ORDINALS[n]}`],
    // "by sign-up month", "by signup date": the sign-up date, by that grain.
    [/\b(?:sign ?ups?|signed up|registrations?|registration|registered|joined) (day|week|month|quarter|year)\b/g, "signed up by $1"],
    [/\b(?:sign ?ups?|signed up|registrations?|registration|registered|joined) date\b/g, "signed up"],
    [/\b(sign ?ups?|signed up|registrations?|registered|joined)\b/g, "signed up"],
    [/\b(excluding|exclude|without|except(?: for)?|other than|apart from|not counting)\b/g, "excluding"],
    [/\b(more than|greater than|higher than|larger than|above|over|exceeding|bigger than)(?= \d)/g, "gt"],
    [/\b(at least|no less than|minimum of|min)(?= \d)/g, "gte"],
    [/\b(less than|fewer than|lower than|smaller than|below|under)(?= \d)/g, "lt"],
    [/\b(at most|no more than|up to|maximum of|max)(?= \d)/g, "lte"],
    [/\b(pieces|items)\b/g, "units"],
    [/\b(avg|mean)\b/g, "average"],
    [/\b(?:best|top|most)[ -]?sell(?:ing|er|ers)\b/g, "top units sold"],
    // "the top selling product per category": the first within each group; otherwise "per category" is "by category".
    [/\b(top|best|bottom|worst|busiest)\b(.+?)\bper (?!(?:day|week|month|quarter|year|hour|each)\b)/g, "$1$2in each "],
    [/\bper (?!(?:day|week|month|quarter|year|hour|each)\b)/g, "by "],
    [/\b(share|percentage|percent|proportion|portion|fraction) of\b/g, "share"],
    [/\b(cumulative|cumulated|running total of|running total|running sum|accumulated)\b/g, "cumulative"],
    [/\b(?:why did|why has|why have|why is|why are|why was|why were|explain why|what drove|what caused|reason for)\b/g, "why"],
    [/\b(fall|fell|drop|dropped|decline|declined|decrease|go down|went down|shrink|shrank|rise|rose|go up|went up|jump|jumped)\b/g, "change"],
    [/\b(in each|for each|per each|in every|for every|each|every)\b(?! (?:day|week|month|quarter|year)\b)/g, "by each"],
    [/\b(busiest|most active|strongest|peak|fastest|quickest)\b/g, "top"],
    [/\b(quietest|slowest|weakest)\b/g, "bottom"],
    [/\bnach\b/g, "by"],
    [/\b(days? of (?:the )?week|weekdays?)\b/g, "weekday"],
    [/\b(hours? of (?:the )?day|times? of (?:the )?day)\b/g, "hourofday"],
    [/\b(months? of (?:the )?year)\b/g, "monthofyear"],
    [/\b(quarters? of (?:the )?year)\b/g, "quarterofyear"],
    [/\b(days? of (?:the )?month)\b/g, "dayofmonth"],
    [/\b(weeks? of (?:the )?year|calendar weeks?)\b/g, "weekofyear"],
    [/\b(sales|turnover|income|gmv)\b/g, "revenue"],
    [/\b(number of orders|order count|how many orders)\b/g, "orders"],
    [/\b(how many|number of|count of)\b/g, "count"],
    [/\b(previous|past|prior)\b/g, "last"],
    [/\b(current)\b/g, "this"],
    [/\bversus\b/g, "vs"],
    [/\b(broken down by|split by|grouped by|across)\b/g, "by"],
    [/\b(best|largest|biggest|highest|most)\b/g, "top"],
    [/\b(worst|smallest|lowest|least|fewest)\b/g, "bottom"],
    [/\b(trend|trends|evolution|over the time)\b/g, "over time"],
  ],
  de: [
    // "vor zwei Jahren": a period that many units earlier (before the number words are read).
    [
      /\bvor (\d{1,2}|zwei|drei|vier|funf|zehn) (jahren|quartalen|monaten|wochen|tagen)\b/g,
      (_: string, n: string, u: string) => `${NUMBER_WORDS[n] ?? n} ${DE_UNITS[u]} ago`,
    ],
    [
      /\b(?:im |das |dem )?(ersten|erstes|erste|zweiten|zweites|zweite|dritten|drittes|dritte|vierten|viertes|vierte) quartals?\b/g,
      (_: string, n: string) => `q${ORDINALS[n.replace(/(en|es|e)$/, "")]}`,
    ],
    [/\b(wochentagen|wochentage|wochentag)\b/g, "weekday"],
    [/\b(bestellanzahl|bestellungsanzahl|anzahl der bestellungen|anzahl bestellungen)\b/g, "orders"],
    [/\b(monaten des jahres|monate des jahres|monat des jahres)\b/g, "monthofyear"],
    [/\b(quartalen des jahres|quartale des jahres|quartal des jahres)\b/g, "quarterofyear"],
    [/\b(tagen des monats|tage des monats|tag des monats|monatstagen|monatstage|monatstag)\b/g, "dayofmonth"],
    [/\b(kalenderwochen|kalenderwoche)\b/g, "weekofyear"],
    [/\b(neukunden)\b/g, "new customers"],
    [/\b(angemeldet|registriert|anmeldungen|anmeldung|registrierungen|registrierung|hinzugekommen)\b/g, "signed up"],
    [/\b(ohne|ausser|ausgenommen|abzuglich)\b/g, "excluding"],
    [/\b(mehr als|uber|grosser als|hoher als)(?= \d)/g, "gt"],
    [/\b(mindestens)(?= \d)/g, "gte"],
    [/\b(weniger als|unter|kleiner als|niedriger als)(?= \d)/g, "lt"],
    [/\b(hochstens|maximal)(?= \d)/g, "lte"],
    [/\b(stuck|stuckzahl|teile)\b/g, "units"],
    [/\b(meistverkauften|meistverkaufte|meistverkaufter|meistverkauftes|bestverkauften|bestverkaufte|bestverkaufter|bestverkauftes)\b/g, "top units sold"],
    [/\b(anteil|anteile|prozentsatz)(?: (?:am|an der|an den|an|des|der))?\b/g, "share"],
    [/\b(kumulierte|kumulierten|kumulierter|kumuliert|aufsummierte|aufsummierten|laufende summe der|laufende summe)\b/g, "cumulative"],
    [/\b(warum|weshalb|wieso)\b/g, "why"],
    [/\b(gesunken|gefallen|zuruckgegangen|eingebrochen|gestiegen)\b/g, "change"],
    [/\b(gewachsen|wuchs|zugelegt)\b/g, "grew"],
    [/\b(in jeder|in jedem|fur jede|fur jeden|fur jedes|jede|jeder|jeden|jedes|je)\b(?! (?:monat|woche|tag|jahr|quartal))/g, "by each"],
    [/\bzwischen\b/g, "between"],
    [/\b(umsatzstarkste|umsatzstarksten|umsatzstarkster|umsatzstarkstes)\b/g, "top revenue"],
    [/\b(?:am )?(starkste|starksten|starkster|schnellste|schnellsten|schnellster|geschaftigste|geschaftigsten|geschaftigster|geschaftigstes)\b/g, "top"],
    [/\b(durchschnittsbestellwert|durchschnitt bestellwert|durchschnitts bestellwert|durchschnittliche bestellwert)\b/g, "average order value"],
    // The total of the orders' values is the revenue, not the average order value.
    [/\b(gesamtbestellwert|gesamt bestellwert|gesamter bestellwert|gesamten bestellwert)\b/g, "revenue"],
    [/\b(tageszeiten|tageszeit|uhrzeiten|uhrzeit|stunden|stunde)\b/g, "hourofday"],
    [/\b(?:im vergleich zum|gegenuber dem|gegenuber|vs) (vorjahr|vorjahreszeitraum)\b/g, "vs last year"],
    [/\b(?:im vergleich zum|gegenuber dem|gegenuber|vs) vormonat\b/g, "vs last month"],
    [/\b(?:im vergleich zum|gegenuber dem|gegenuber|vs) vorquartal\b/g, "vs last quarter"],
    [/\b(?:im vergleich zur|gegenuber der|gegenuber|vs) vorwoche\b/g, "vs last week"],
    [/\b(im vergleich zum|im vergleich zur|im vergleich zu|verglichen mit)\b/g, "vs"],
    [/\bumsatzwachstum\b/g, "revenue growth"],
    [/\b(wachstum|wachstums|zuwachs|veranderung|veranderungen)\b/g, "growth"],
    [/\b(im zeitverlauf|uber die zeit|uber zeit|im verlauf|entwicklung|verlauf)\b/g, "over time"],
    [/\b(durchschnittlicher bestellwert|durchschnittlichen bestellwert|bestellwert)\b/g, "average order value"],
    [/\b(durchschnittsumsatze|durchschnittsumsatz)\b/g, "average revenue"],
    [/\b(durchschnittlicher|durchschnittliche|durchschnittlichen|durchschnittliches|durchschnittlich|durchschnitt|mittlerer|mittlere|mittleren)\b/g, "average"],
    [/\b(abgeschlossene bestellungen|abgeschlossenen bestellungen)\b/g, "completed orders"],
    [/\b(abschlussquote|abschlussrate)\b/g, "completion rate"],
    [/\b(verkaufte einheiten|einheiten|stuckzahl|stuckzahlen)\b/g, "units"],
    [/\b(umsatz|umsatze|umsatzes|erlos|erlose)\b/g, "revenue"],
    [/\b(anzahl der bestellungen|bestellungen|bestellung|auftrage)\b/g, "orders"],
    [/\b(wie viele|wieviele|anzahl)\b/g, "count"],
    [/\b(gesamt|insgesamt)\b/g, "total"],
    // "jeden Monat": each month (the ones before another word were read as "by each" above).
    [/\b(jeden|jede|jedes|jeder)\b/g, "each"],
    [/\b(nach|pro|je|aufgeteilt nach)\b/g, "by"],
    [/\b(letzten|letztes|letzte|letzter|vorigen|voriges|vorige|vergangenen|vergangenes|vergangene|vorjahr)\b/g, "last"],
    [/\b(diesen|dieses|diese|dieser|aktuellen|aktuelles|laufenden|laufendes)\b/g, "this"],
    [/\b(jahren|jahres|jahr|jahrlich)\b/g, "year"],
    [/\b(quartalen|quartals|quartal|quartalsweise)\b/g, "quarter"],
    [/\b(monaten|monats|monate|monat|monatlich)\b/g, "month"],
    [/\b(wochen|woche|wochentlich)\b/g, "week"],
    [/\b(tagen|tage|tag|taglich)\b/g, "day"],
    [/\b(landern|lander|landes|land)\b/g, "country"],
    [/\b(stadten|stadte|stadt)\b/g, "city"],
    [/\b(produktkategorien|produktkategorie|kategorien|kategorie)\b/g, "category"],
    [/\b(produkten|produkte|produkt|artikel)\b/g, "product"],
    [/\b(kunden|kunde|kundinnen)\b/g, "customers"],
    [/\b(vergleiche|vergleich|vergleichen)\b/g, "compare"],
    [/\b(gegenuber|gegen)\b/g, "vs"],
    [/\b(die besten|besten|beste|grossten|hochsten|meisten)\b/g, "top"],
    [/\b(schlechtesten|kleinsten|niedrigsten|wenigsten)\b/g, "bottom"],
    [/\bund\b/g, "and"],
    [/\boder\b/g, "or"],
    [/\b(eins|ein)\b/g, "1"],
    [/\bdrei\b/g, "3"],
    [/\bfunf\b/g, "5"],
    [/\bzehn\b/g, "10"],
    // Order statuses, after the phrases that contain them ("abgeschlossene Bestellungen").
    [/\b(stornierten|stornierter|stornierte|storniert|stornos|storno)\b/g, "cancelled"],
    [/\b(abgeschlossenen|abgeschlossener|abgeschlossene|abgeschlossen)\b/g, "completed"],
    [/\b(versandten|versandter|versandte|versendeten|versendete|versendet|verschickt)\b/g, "shipped"],
    [/\b(zuruckgegebenen|zuruckgegebener|zuruckgegebene|zuruckgegeben|zuruckgesandten|zuruckgesandte|retournierte|retourniert|retouren)\b/g, "returned"],
  ],
  es: [
    // "hace dos años": a period that many units earlier.
    [
      /\bhace (\d{1,2}|dos|tres|cuatro|cinco|diez) (anos|trimestres|meses|semanas|dias)\b/g,
      (_: string, n: string, u: string) => `${NUMBER_WORDS[n] ?? n} ${ES_UNITS[u]} ago`,
    ],
    [/\b(?:el )?(primer|primero|segundo|tercer|tercero|cuarto) trimestre(?: de| del)?\b/g, (_: string, n: string) => `t${ORDINALS[n]}`],
    [/\b(dias de la semana|dia de la semana)\b/g, "weekday"],
    [/\b(se registraron|se registro|se dieron de alta|se dio de alta|registrados|registradas|registros|registro|altas)\b/g, "signed up"],
    [/\b(excluyendo|excepto|salvo|sin contar|sin)\b/g, "excluding"],
    [/\b(mas de|mayor(?:es)? (?:de|que)|superior(?:es)? a|por encima de)(?= \d)/g, "gt"],
    [/\b(al menos|como minimo)(?= \d)/g, "gte"],
    [/\b(menos de|menor(?:es)? (?:de|que)|inferior(?:es)? a|por debajo de)(?= \d)/g, "lt"],
    [/\b(como maximo|hasta)(?= \d)/g, "lte"],
    [/\b(piezas|articulos)\b/g, "units"],
    [/\b(mas vendidos|mas vendidas|mas vendido|mas vendida)\b/g, "top units sold"],
    [/\b(categorias de productos|categorias de producto|categoria de productos|categoria de producto|categoria del producto)\b/g, "category"],
    [/\b(?:que )?(?:porcentaje|proporcion|cuota|participacion|parte)(?: de| del)?\b/g, "share"],
    [/\b(acumulados|acumuladas|acumulado|acumulada|suma acumulada de|suma acumulada)\b/g, "cumulative"],
    [/\b(por que|porque)\b/g, "why"],
    [/\b(bajaron|bajo|cayeron|cayo|disminuyeron|disminuyo|subieron|subio|cambiaron|cambio|variaron|vario)\b/g, "change"],
    [/\b(crecio mas|crecieron mas)(?: rapido| rapidamente| deprisa)?\b/g, "grew top"],
    [/\b(crecio|crecieron)\b/g, "grew"],
    [/\b(?:en |por |de |para )?cada\b(?! (?:mes|semana|dia|ano|trimestre)\b)/g, "by each"],
    [/\bentre\b/g, "between"],
    [/\b(con mas|con mayor|con mayores)\b/g, "with top"],
    [/\b(mas ocupados|mas ocupadas|mas ocupado|mas ocupada|mas activos|mas activas|mas activo|mas activa|con mas actividad)\b/g, "top"],
    [/\b(con menos|con menor|con menores)\b/g, "with bottom"],
    [/\b(cada)\b/g, "each"],
    [/\b(horas del dia|hora del dia|horas|hora)\b/g, "hourofday"],
    [/\b(meses del ano|mes del ano)\b/g, "monthofyear"],
    [/\b(trimestres del ano|trimestre del ano)\b/g, "quarterofyear"],
    [/\b(dias del mes|dia del mes)\b/g, "dayofmonth"],
    [/\b(semanas del ano|semana del ano)\b/g, "weekofyear"],
    [/\binteranual\b/g, "year over year"],
    [/\b(frente al|frente a|respecto al|respecto a|comparado con el|comparado con|en comparacion con el|en comparacion con)\b/g, "vs"],
    [/\b(crecimiento|variacion|aumento)\b/g, "growth"],
    [/\b(a lo largo del tiempo|en el tiempo|evolucion|tendencia)\b/g, "over time"],
    [/\b(valor medio (?:del|de|de los|por) pedidos?|valor promedio (?:del|de|de los|por) pedidos?|ticket medio|ticket promedio)\b/g, "average order value"],
    [/\b(promedio de|media de|medios|medias|medio|media|promedio)\b/g, "average"],
    [/\b(pedidos completados|pedidos completos)\b/g, "completed orders"],
    [/\b(tasa de finalizacion|tasa de completado)\b/g, "completion rate"],
    [/\b(unidades vendidas|unidades)\b/g, "units"],
    [/\b(ingresos|ingreso|ventas|facturacion)\b/g, "revenue"],
    [/\b(numero de pedidos|pedidos|pedido|ordenes)\b/g, "orders"],
    [/\b(cuantos|cuantas|numero de|cantidad de)\b/g, "count"],
    [/\b(o|u)\b/g, "or"],
    [/\b(por|segun|por cada)\b/g, "by"],
    [/\b(ultimos|ultimas|ultimo|ultima|pasado|pasada|anterior)\b/g, "last"],
    [/\b(este|esta|actual)\b/g, "this"],
    [/\b(anos|ano|anual)\b/g, "year"],
    [/\b(trimestres|trimestre|trimestral)\b/g, "quarter"],
    [/\b(meses|mes|mensual)\b/g, "month"],
    [/\b(semanas|semana|semanal)\b/g, "week"],
    [/\b(dias|dia|diario)\b/g, "day"],
    [/\b(paises|pais)\b/g, "country"],
    [/\b(ciudades|ciudad)\b/g, "city"],
    [/\b(categorias|categoria)\b/g, "category"],
    [/\b(productos|producto)\b/g, "product"],
    [/\b(clientes|cliente)\b/g, "customers"],
    [/\b(estados|estado)\b/g, "status"],
    [/\b(compara|comparar|comparacion)\b/g, "compare"],
    [/\b(frente a|contra)\b/g, "vs"],
    [/\b(mejores|mejor|principales|mayores)\b/g, "top"],
    // "tuvo más pedidos": the most; "más de 3" was read as a comparison before this.
    [/\b(mas)\b/g, "top"],
    [/\b(peores|menores)\b/g, "bottom"],
    [/\by\b/g, "and"],
    [/\btres\b/g, "3"],
    [/\bcinco\b/g, "5"],
    [/\bdiez\b/g, "10"],
    // Order statuses, after the phrases that contain them ("pedidos completados").
    [/\b(cancelados|canceladas|cancelado|cancelada)\b/g, "cancelled"],
    [/\b(completados|completadas|completado|completada)\b/g, "completed"],
    [/\b(enviados|enviadas|enviado|enviada)\b/g, "shipped"],
    [/\b(devueltos|devueltas|devuelto|devuelta)\b/g, "returned"],
  ],
};

const EN_NUMBERS: Rewrite[] = [
  [/\bthree\b/g, "3"],
  [/\bfive\b/g, "5"],
  [/\bten\b/g, "10"],
  [/\btwenty\b/g, "20"],
];

/** Rewrites a normalized question into canonical English words. */
export function canonicalize(normalized: string, lang: Language): string {
  // Dozens of expressions run over the text: a question asked again (a suggestion, a dashboard's
  // AI widget) reads its canonical form back.
  const key = `${lang} ${normalized}`;
  const known = canonicalForms.get(key);
  if (known !== undefined) return known;
  const text = rewrite(normalized, lang);
  if (canonicalForms.size >= CANONICAL_FORMS_KEPT) canonicalForms.delete(canonicalForms.keys().next().value!);
  canonicalForms.set(key, text);
  return text;
}

const CANONICAL_FORMS_KEPT = 1000;
const canonicalForms = new Map<string, string>();

function rewrite(normalized: string, lang: Language): string {
  let text = ` ${normalized} `;
  // Number words first: "more than three units" is a comparison with 3.
  for (const [re, to] of [...(lang === "en" ? EN_NUMBERS : []), ...REWRITES[lang]]) text = typeof to === "string" ? text.replace(re, to) : text.replace(re, to);
  return text.replace(/\s+/g, " ").trim();
}

/** Words that carry no meaning for the match, in every language (normalized). */
export const STOPWORDS = new Set(
  [
    "the a an of what was is are were show me give list tell much which did do does our my total please for with all in on at to from",
    "during within display get find see i we you it its that this those these there their what's whats",
    "zeige zeig mir gib die der das den dem des ein eine einen wie war ist sind was welche welcher im in am an auf fur von mit uns unser unsere bitte insgesamt gesamt",
    "muestra muestrame dame el la los las de del un una cual cuales fue es son que al en con para nos nuestro nuestra total",
    // Question and helper words: "how many … did we have", "wie hoch ist …", "cuántos … hubo".
    "how did does do has have had been be can could would should will your new here overall altogether grand so far who whom whose when where",
    "hoch hat haben hatte hatten wurden wurde gab gibt es viel welcher welches welchen unsere unserer unseren unserem wir sich neue neuen neuer einem einer alle allen",
    "cuanto cuanta hay hubo tiene tienen tuvo nuevos nuevas nuevo nueva se han ha mi mis nuestros nuestras todos todas aporta aportan",
    "wer wem wen wessen wann wo woher aus quien quienes donde cuando como",
    "comes come came contributes between vergleiche vergleich von bis breakdown make made earn earned generate generated sell bring brought get got",
    "gemacht verdient verkauft erzielt erwirtschaftet entfallt entfallen tuvimos tenemos tuvieron vendimos hicimos generamos ganamos",
    "corresponde corresponden representa representan accounts account",
    "unseres kommt kommen kam kamen stammt stammen stammte stammten proviene provienen viene vienen vino vinieron procede proceden totales",
    // Words about the answer itself: "the revenue numbers", "die Umsatzzahlen", "las cifras de ventas".
    "data numbers number figures figure stats statistics report overview summary metrics metric kpi kpis",
    "daten zahlen zahl kennzahlen kennzahl ubersicht bericht statistik werte",
    "datos cifras cifra numeros resumen informe estadisticas metricas",
  ]
    .join(" ")
    .split(" "),
);

/** "compared with the previous year" and "of the previous year", in German and Spanish, per unit. */
const DE_PLURAL: Record<string, string> = { year: "Jahre", quarter: "Quartale", month: "Monate", week: "Wochen", day: "Tage" };
const ES_PLURAL: Record<string, string> = { year: "años", quarter: "trimestres", month: "meses", week: "semanas", day: "días" };
const DE_PREVIOUS: Record<string, string> = { year: "zum Vorjahr", quarter: "zum Vorquartal", month: "zum Vormonat", week: "zur Vorwoche", day: "zum Vortag" };
const DE_PREVIOUS_OF: Record<string, string> = {
  year: "des Vorjahres",
  quarter: "des Vorquartals",
  month: "des Vormonats",
  week: "der Vorwoche",
  day: "des Vortags",
};
const ES_PREVIOUS: Record<string, string> = {
  year: "al año anterior",
  quarter: "al trimestre anterior",
  month: "al mes anterior",
  week: "a la semana anterior",
  day: "al día anterior",
};
const ES_PREVIOUS_OF: Record<string, string> = {
  year: "del año anterior",
  quarter: "del trimestre anterior",
  month: "del mes anterior",
  week: "de la semana anterior",
  day: "del día anterior",
};

/** Sentences of the answer, per language. */
export const SAY: Record<
  Language,
  {
    understood: string;
    measure: string;
    groupedBy: string;
    filteredBy: string;
    period: string;
    top: (n: number) => string;
    bottom: (n: number) => string;
    topByChange: (n: number) => string;
    bottomByChange: (n: number) => string;
    overTime: (g: string) => string;
    ignored: string;
    noRows: string;
    total: (m: string, v: string) => string;
    leads: (m: string, who: string, v: string) => string;
    then: string;
    peak: (m: string, when: string, v: string) => string;
    low: (when: string, v: string) => string;
    rows: (n: number) => string;
    cannot: string;
    noMatch: (text: string) => string;
    tryThese: string;
    defaultMeasure: (m: string) => string;
    relativeTo: (d: string) => string;
    compared: (unit: string, amount?: number) => string;
    comparedToDate: (unit: string, amount?: number) => string;
    noEarlier: (m: string) => string;
    grewMost: (m: string, where: string, pct: string) => string;
    grewLeast: (where: string, pct: string) => string;
    fellMost: (where: string, pct: string) => string;
    latest: (when: string, pct: string, from: string, to: string) => string;
    against: (m: string, current: string, previous: string, pct: string, change: string) => string;
    /** "Revenue in **DE**: **37**, against **81** in **US**": two values of one dimension, one against the other. */
    againstSide: (m: string, side: string, current: string, other: string, baseline: string, pct: string, change: string) => string;
    /** Before the values that make the difference between two sides. */
    difference: string;
    readOnly: string;
    /** A group's figure and a row's value joined by "or" are not read. */
    eitherCondition: string;
    noSuch: (term: string) => string;
    groupInstead: (entity: string, list: string) => string;
    holds: (list: string) => string;
    or: string;
    busiest: (grain: string, when: string, m: string, v: string) => string;
    periods: (baseline: string, current: string) => string;
    shareOfTotal: string;
    /** A calculated field's title: "Share of Revenue (Category = Electronics)". */
    shareField: (m: string, rows: string) => string;
    /** "each one's share of the whole for Country = DE / FR" (the reading of per-value shares). */
    shareOfWholeFor: (what: string) => string;
    /** "Share of all Revenue: **DE** **9.3%** ($80,501.61), …" (`items` already written). */
    sharesOfWhole: (m: string, items: string) => string;
    runningTotal: string;
    ranked: string;
    perGroup: (n: number, within: string) => string;
    explained: string;
    share: (pct: string) => string;
    reached: (m: string, v: string, when: string) => string;
    eachTop: (m: string, within: string) => string;
    fromTo: (from: string, to: string) => string;
    contributors: string;
    ofChange: (pct: string) => string;
  }
> = {
  en: {
    understood: "I read this as",
    measure: "measure",
    groupedBy: "by",
    filteredBy: "where",
    period: "period",
    top: (n) => `top ${n}`,
    bottom: (n) => `bottom ${n}`,
    topByChange: (n) => `the ${n} with the biggest change`,
    bottomByChange: (n) => `the ${n} with the smallest change`,
    overTime: (g) => `per ${g}`,
    ignored: "I did not use",
    noRows: "There is no data for this question.",
    total: (m, v) => `${m}: **${v}**.`,
    leads: (m, who, v) => `**${who}** leads ${m} with **${v}**`,
    then: "then",
    peak: (m, when, v) => `${m} peaked in **${when}** at **${v}**`,
    low: (when, v) => `lowest in ${when} (${v})`,
    rows: (n) => `${n} ${n === 1 ? "row" : "rows"}.`,
    cannot: "I could not answer that.",
    noMatch: (text) => `Nothing in the data model matches “${text}”.`,
    tryThese: "Questions I can answer:",
    defaultMeasure: (m) => `(counting ${m}, as no measure was named)`,
    relativeTo: (d) => `relative dates count from the end of the data, ${d}`,
    compared: (unit, amount = 1) => `compared with ${amount === 1 ? `one ${unit}` : `${amount} ${unit}s`} earlier`,
    comparedToDate: (unit, amount = 1) => `to date, compared with the same days ${amount === 1 ? `one ${unit}` : `${amount} ${unit}s`} earlier`,
    noEarlier: (m) => `There is no earlier period in the data to compare ${m} with.`,
    grewMost: (m, where, pct) => `${m} grew most in **${where}** (**${pct}**)`,
    grewLeast: (where, pct) => `the weakest: **${where}** (${pct})`,
    fellMost: (where, pct) => `the steepest fall: **${where}** (${pct})`,
    latest: (when, pct, from, to) => `The latest, **${when}**, changed by **${pct}** (from ${from} to ${to}).`,
    against: (m, current, previous, pct, change) => `${m}: **${current}**, against **${previous}** in the period before: **${pct}** (${change}).`,
    againstSide: (m, side, current, other, baseline, pct, change) =>
      `${m} in **${side}**: **${current}**, against **${baseline}** in **${other}**: **${pct}** (${change}).`,
    difference: "What makes the difference most:",
    readOnly: "The chat only reads data: it cannot delete, change or add anything. Ask about the data instead, for example:",
    eitherCondition:
      "I can answer one condition or another on the rows themselves (above $500 or below $10), or on the groups' figures, but not a group's figure and a row's value in one “or”: ask for each on its own.",
    noSuch: (term) => `There ${/[^s]s$/.test(term) ? "are" : "is"} no ${term} in this data`,
    groupInstead: (entity, list) => `; you can group ${entity} by ${list}.`,
    holds: (list) => `. It holds ${list}.`,
    or: "or",
    busiest: (grain, when, m, v) => `The top ${grain} by ${m} was **${when}**, with **${v}**.`,
    periods: (baseline, current) => `${current} against ${baseline}`,
    shareOfTotal: "each row's share of the total",
    shareField: (m, rows) => `Share of ${m} (${rows})`,
    shareOfWholeFor: (what) => `each one's share of the whole for ${what}`,
    sharesOfWhole: (m, items) => `Share of all ${m}: ${items}.`,
    runningTotal: "the running total",
    ranked: "ranked",
    perGroup: (n, within) => `the top ${n} in each ${within}`,
    explained: "what moved it most",
    share: (pct) => ` (**${pct}** of the total)`,
    reached: (m, v, when) => `${m} added up to **${v}** by **${when}**.`,
    eachTop: (m, within) => `The top by ${m} in each ${within}:`,
    fromTo: (from, to) => ` (from ${from} to ${to})`,
    contributors: "What moved it most:",
    ofChange: (pct) => `${pct} of the change`,
  },
  de: {
    understood: "So habe ich die Frage verstanden",
    measure: "Kennzahl",
    groupedBy: "nach",
    filteredBy: "wobei",
    period: "Zeitraum",
    top: (n) => `Top ${n}`,
    bottom: (n) => `die letzten ${n}`,
    topByChange: (n) => `die ${n} mit der größten Veränderung`,
    bottomByChange: (n) => `die ${n} mit der kleinsten Veränderung`,
    overTime: (g) => `pro ${g}`,
    ignored: "Nicht verwendet",
    noRows: "Für diese Frage gibt es keine Daten.",
    total: (m, v) => `${m}: **${v}**.`,
    leads: (m, who, v) => `**${who}** liegt bei ${m} vorn mit **${v}**`,
    then: "danach",
    peak: (m, when, v) => `${m} war am höchsten im Zeitraum **${when}** mit **${v}**`,
    low: (when, v) => `am niedrigsten ${when} (${v})`,
    rows: (n) => `${n} ${n === 1 ? "Zeile" : "Zeilen"}.`,
    cannot: "Diese Frage kann ich nicht beantworten.",
    noMatch: (text) => `Nichts im Datenmodell passt zu „${text}“.`,
    tryThese: "Fragen, die ich beantworten kann:",
    defaultMeasure: (m) => `(ich zähle ${m}, da keine Kennzahl genannt wurde)`,
    relativeTo: (d) => `relative Zeiträume zählen ab dem Ende der Daten, ${d}`,
    compared: (unit, amount = 1) => (amount === 1 ? `im Vergleich ${DE_PREVIOUS[unit] ?? unit}` : `im Vergleich zu ${amount} ${DE_PLURAL[unit] ?? unit} davor`),
    comparedToDate: (unit, amount = 1) =>
      amount === 1
        ? `bisher, im Vergleich zu denselben Tagen ${DE_PREVIOUS_OF[unit] ?? unit}`
        : `bisher, im Vergleich zu denselben Tagen ${amount} ${DE_PLURAL[unit] ?? unit} davor`,
    noEarlier: (m) => `In den Daten gibt es keinen früheren Zeitraum, mit dem sich ${m} vergleichen lässt.`,
    grewMost: (m, where, pct) => `Das stärkste Wachstum bei ${m}: **${where}** (**${pct}**)`,
    grewLeast: (where, pct) => `das schwächste: **${where}** (${pct})`,
    fellMost: (where, pct) => `der stärkste Rückgang: **${where}** (${pct})`,
    latest: (when, pct, from, to) => `Zuletzt, **${when}**: **${pct}** (von ${from} auf ${to}).`,
    against: (m, current, previous, pct, change) => `${m}: **${current}**, gegenüber **${previous}** im Vergleichszeitraum: **${pct}** (${change}).`,
    againstSide: (m, side, current, other, baseline, pct, change) =>
      `${m} bei **${side}**: **${current}**, gegenüber **${baseline}** bei **${other}**: **${pct}** (${change}).`,
    difference: "Den Unterschied machen am meisten aus:",
    readOnly: "Der Chat liest Daten nur: Er kann nichts löschen, ändern oder hinzufügen. Fragen Sie stattdessen nach den Daten, zum Beispiel:",
    eitherCondition:
      "Ich kann die eine oder die andere Bedingung an die Zeilen selbst beantworten (über 500 $ oder unter 10 $) oder an die Zahlen der Gruppen, aber nicht die Zahl einer Gruppe und den Wert einer Zeile in einem „oder“: Fragen Sie nach jedem einzeln.",
    noSuch: (term) => `In diesen Daten gibt es nichts zu „${term}“`,
    groupInstead: (entity, list) => `; ${entity} lassen sich nach ${list} gruppieren.`,
    holds: (list) => `. Sie enthalten ${list}.`,
    or: "oder",
    busiest: (grain, when, m, v) => `Spitzenreiter (${grain}) bei ${m}: **${when}** mit **${v}**.`,
    periods: (baseline, current) => `${current} gegenüber ${baseline}`,
    shareOfTotal: "der Anteil jeder Zeile an der Summe",
    shareField: (m, rows) => `Anteil an ${m} (${rows})`,
    shareOfWholeFor: (what) => `der Anteil an der Gesamtsumme für ${what}`,
    sharesOfWhole: (m, items) => `Anteil an ${m} insgesamt: ${items}.`,
    runningTotal: "die laufende Summe",
    ranked: "mit Rang",
    perGroup: (n, within) => `die ersten ${n} je ${within}`,
    explained: "was es am meisten bewegt hat",
    share: (pct) => ` (**${pct}** der Summe)`,
    reached: (m, v, when) => `${m} summierte sich bis **${when}** auf **${v}**.`,
    eachTop: (m, within) => `Spitzenreiter bei ${m} je ${within}:`,
    fromTo: (from, to) => ` (von ${from} auf ${to})`,
    contributors: "Am meisten bewegt haben es:",
    ofChange: (pct) => `${pct} der Veränderung`,
  },
  es: {
    understood: "Así entendí la pregunta",
    measure: "medida",
    groupedBy: "por",
    filteredBy: "donde",
    period: "periodo",
    top: (n) => `los ${n} primeros`,
    bottom: (n) => `los ${n} últimos`,
    topByChange: (n) => `los ${n} con el mayor cambio`,
    bottomByChange: (n) => `los ${n} con el menor cambio`,
    overTime: (g) => `por ${g}`,
    ignored: "No usé",
    noRows: "No hay datos para esta pregunta.",
    total: (m, v) => `${m}: **${v}**.`,
    leads: (m, who, v) => `**${who}** encabeza ${m} con **${v}**`,
    then: "después",
    peak: (m, when, v) => `${m} alcanzó su máximo en **${when}** con **${v}**`,
    low: (when, v) => `mínimo en ${when} (${v})`,
    rows: (n) => `${n} ${n === 1 ? "fila" : "filas"}.`,
    cannot: "No pude responder a eso.",
    noMatch: (text) => `Nada en el modelo de datos coincide con «${text}».`,
    tryThese: "Preguntas que puedo responder:",
    defaultMeasure: (m) => `(cuento ${m}, ya que no se nombró ninguna medida)`,
    relativeTo: (d) => `las fechas relativas cuentan desde el final de los datos, ${d}`,
    compared: (unit, amount = 1) => (amount === 1 ? `frente ${ES_PREVIOUS[unit] ?? unit}` : `frente a ${amount} ${ES_PLURAL[unit] ?? unit} antes`),
    comparedToDate: (unit, amount = 1) =>
      amount === 1
        ? `hasta la fecha, frente a los mismos días ${ES_PREVIOUS_OF[unit] ?? unit}`
        : `hasta la fecha, frente a los mismos días ${amount} ${ES_PLURAL[unit] ?? unit} antes`,
    noEarlier: (m) => `No hay un periodo anterior en los datos con el que comparar ${m}.`,
    grewMost: (m, where, pct) => `El mayor crecimiento de ${m}: **${where}** (**${pct}**)`,
    grewLeast: (where, pct) => `el más débil: **${where}** (${pct})`,
    fellMost: (where, pct) => `la mayor caída: **${where}** (${pct})`,
    latest: (when, pct, from, to) => `El último, **${when}**, varió un **${pct}** (de ${from} a ${to}).`,
    against: (m, current, previous, pct, change) => `${m}: **${current}**, frente a **${previous}** en el periodo anterior: **${pct}** (${change}).`,
    againstSide: (m, side, current, other, baseline, pct, change) =>
      `${m} en **${side}**: **${current}**, frente a **${baseline}** en **${other}**: **${pct}** (${change}).`,
    difference: "Lo que más explica la diferencia:",
    readOnly: "El chat solo lee datos: no puede borrar, cambiar ni añadir nada. Pregunte por los datos, por ejemplo:",
    eitherCondition:
      "Puedo responder una condición u otra sobre las filas mismas (más de 500 $ o menos de 10 $) o sobre las cifras de los grupos, pero no la cifra de un grupo y el valor de una fila en un mismo «o»: pregunte por cada una por separado.",
    noSuch: (term) => `En estos datos no hay «${term}»`,
    groupInstead: (entity, list) => `; puede agrupar ${entity} por ${list}.`,
    holds: (list) => `. Contienen ${list}.`,
    or: "o",
    busiest: (grain, when, m, v) => `El ${grain} con más ${m} fue **${when}**, con **${v}**.`,
    periods: (baseline, current) => `${current} frente a ${baseline}`,
    shareOfTotal: "la parte de cada fila en el total",
    shareField: (m, rows) => `Parte de ${m} (${rows})`,
    shareOfWholeFor: (what) => `la parte de cada uno en el total para ${what}`,
    sharesOfWhole: (m, items) => `Parte del total de ${m}: ${items}.`,
    runningTotal: "el total acumulado",
    ranked: "con su puesto",
    perGroup: (n, within) => `los ${n} primeros de cada ${within}`,
    explained: "qué lo movió más",
    share: (pct) => ` (**${pct}** del total)`,
    reached: (m, v, when) => `${m} sumó **${v}** hasta **${when}**.`,
    eachTop: (m, within) => `Los primeros por ${m} en cada ${within}:`,
    fromTo: (from, to) => ` (de ${from} a ${to})`,
    contributors: "Lo que más lo movió:",
    ofChange: (pct) => `${pct} del cambio`,
  },
};

/** Parts of time as the answer names them ("grouped by day of week"), as column headings name them. */
export const PART_NAMES: Record<Language, Record<TimePart, string>> = TIME_PART_NAMES;

/** Names of the time grains, per language. */
export const GRAIN_NAMES: Record<Language, Record<string, string>> = {
  en: { day: "day", week: "week", month: "month", quarter: "quarter", year: "year" },
  de: { day: "Tag", week: "Woche", month: "Monat", quarter: "Quartal", year: "Jahr" },
  es: { day: "día", week: "semana", month: "mes", quarter: "trimestre", year: "año" },
};

/** Words joining a list, per language. */
export const AND: Record<Language, string> = { en: "and", de: "und", es: "y" };
/** "X by Y", "top N X by Y", "X over time" in each language: the follow-up suggestions. */
export const SUGGEST: Record<
  Language,
  {
    by: (m: string, d: string) => string;
    top: (n: number, d: string, m: string) => string;
    overTime: (m: string) => string;
    growth: (m: string, grain: string) => string;
  }
> = {
  en: { by: (m, d) => `${m} by ${d}`, top: (n, d, m) => `${m} by ${d}, top ${n}`, overTime: (m) => `${m} over time`, growth: (m, g) => `${m} growth by ${g}` },
  de: {
    by: (m, d) => `${m} nach ${d}`,
    top: (n, d, m) => `${m} nach ${d}, Top ${n}`,
    overTime: (m) => `${m} im Zeitverlauf`,
    growth: (m, g) => `Wachstum ${m} pro ${g}`,
  },
  es: {
    by: (m, d) => `${m} por ${d}`,
    top: (n, d, m) => `${m} por ${d}, los ${n} mejores`,
    overTime: (m) => `${m} a lo largo del tiempo`,
    growth: (m, g) => `crecimiento de ${m} por ${g}`,
  },
};

/**
 * Everyday names of common model words in each language, for the sentences that list what the
 * data holds (the model's own titles are used for any word not here).
 */
export const MODEL_WORDS: Record<Exclude<Language, "en">, Record<string, string>> = {
  de: {
    customers: "Kunden",
    orders: "Bestellungen",
    products: "Produkte",
    country: "Land",
    city: "Stadt",
    category: "Kategorie",
    status: "Status",
    name: "Name",
  },
  es: {
    customers: "los clientes",
    orders: "los pedidos",
    products: "los productos",
    country: "país",
    city: "ciudad",
    category: "categoría",
    status: "estado",
    name: "nombre",
  },
};

/** German words the rewrites know, the parts a compound is split into ("gesamtumsatz" → "gesamt umsatz"). */
const DE_VOCABULARY = new Set(REWRITES.de.flatMap(([re]) => re.source.replace(/\\b/g, " ").match(/[a-z]{4,}/g) ?? []));

/**
 * Splits German compounds the rewrites and the model do not know into a known head and the
 * rest ("gesamtumsatz" → "gesamt umsatz", "kundensegment" → "kunden segment"), so the head is read
 * and the rest is read (or reported as unknown) on its own. `known` are the model's own words.
 */
export function splitCompounds(normalized: string, known: Set<string>): string {
  const isKnown = (w: string) => DE_VOCABULARY.has(w) || known.has(w) || STOPWORDS.has(w);
  const split = (word: string, depth: number): string => {
    if (word.length < 8 || isKnown(word) || depth > 2) return word;
    const heads: number[] = [];
    for (let i = word.length - 4; i >= 4; i--) if (DE_VOCABULARY.has(word.slice(0, i)) || known.has(word.slice(0, i))) heads.push(i);
    // A head and a rest both known first ("umsatz entwicklung", not "umsatze ntwicklung"), else the longest head.
    const both = heads.find((i) => isKnown(word.slice(i)));
    const i = both ?? heads[0];
    return i === undefined ? word : `${word.slice(0, i)} ${split(word.slice(i), depth + 1)}`;
  };
  return normalized
    .split(" ")
    .map((w) => (/^[a-z]+$/.test(w) ? split(w, 0) : w))
    .join(" ");
}
