/** Follow-up questions that work on the viewer's views, in the question's language. */
import { GRAIN_NAMES, SUGGEST, type Language } from "../builtin-language";
import { titleOf } from "./format";
import type { Understanding } from "./understanding";
import type { ViewIndex } from "./view-index";

/** Questions that work on these views, in the language of the question. */
export function suggestionsFor(indexes: ViewIndex[], lang: Language, u?: Understanding): string[] {
  const out: string[] = [];
  const say = SUGGEST[lang];
  for (const index of indexes) {
    const measures = index.source.measures.filter((m) => m.measureType !== "number" || m.format);
    const dims = index.source.dimensions.filter((d) => d.type === "string" && !d.primaryKey && !/(^|_)name$/.test(d.name.split(".").pop()!));
    const m0 = measures[0];
    const m1 = measures.find((m) => m.format === "currency") ?? measures[1] ?? m0;
    if (!m0) continue;
    const used = new Set(u ? [...u.dimensions, ...u.measures] : []);
    const freeDims = dims.filter((d) => !used.has(d.name));
    if (u && u.view === index.source.name) {
      const m = titleOf(indexes, u.measures[0]!);
      if (!u.time?.granularity && index.source.dimensions.some((d) => d.type === "time")) out.push(say.overTime(m));
      if (u.time?.granularity && !u.compare) out.push(say.growth(m, GRAIN_NAMES[lang][u.time.granularity] ?? u.time.granularity));
      if (freeDims[0]) out.push(say.by(m, freeDims[0].shortTitle));
      if (freeDims[1]) out.push(say.top(5, freeDims[1].shortTitle, m));
    } else if (!u) {
      if (dims[0] && m1) out.push(say.by(m1.shortTitle, dims[dims.length > 2 ? 2 : 0]!.shortTitle));
      if (dims[1]) out.push(say.top(5, dims[1].shortTitle, m0.shortTitle));
      if (index.source.dimensions.some((d) => d.type === "time")) out.push(say.overTime(m0.shortTitle));
    }
    if (out.length >= 3) break;
  }
  return out.slice(0, 3);
}
