/**
 * The labels of dimension values a dashboard's filter pickers have received (the platform's
 * `labels` of `…/query/values`: translations, country names), per member and locale, so a
 * selected value reads the same in the picker's button as in its list.
 */
export interface ValueLabelMemory {
  remember(member: string, locale: string, labels: Readonly<Record<string, string>> | undefined): void;
  labelOf(member: string, locale: string, value: unknown): string | undefined;
}

/** Most members whose labels are kept (a dashboard has a few filter controls). */
const MAX_MEMBERS = 200;

export function createValueLabelMemory(): ValueLabelMemory {
  const byKey = new Map<string, Map<string, string>>();
  return {
    remember(member, locale, labels) {
      if (!labels) return;
      const key = `${locale}\u0000${member}`;
      let known = byKey.get(key);
      if (!known) {
        if (byKey.size >= MAX_MEMBERS) byKey.delete(byKey.keys().next().value!);
        byKey.set(key, (known = new Map()));
      }
      for (const [value, label] of Object.entries(labels)) known.set(value, label);
    },
    labelOf(member, locale, value) {
      return typeof value === "string" ? byKey.get(`${locale}\u0000${member}`)?.get(value) : undefined;
    },
  };
}
