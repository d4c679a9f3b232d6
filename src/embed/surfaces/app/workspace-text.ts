/** The workspace's words, counts and dates in the session locale. */
import { useMemo } from "react";
import { formatDateTime, formatNumber } from "../../i18n/formatters";
import { useEmbedStore } from "../../state/use-embed-store";
import { appText, type AppMessageKey } from "./app-messages";
import { pluralKey, type WorkspacePluralBase } from "./workspace-messages";

type Vars = Record<string, string | number>;

export interface WorkspaceText {
  /** A word of the app's catalogue with its `{name}` placeholders filled. */
  tx(key: AppMessageKey, vars?: Vars): string;
  /** The plural form the locale's rules pick for `count`, with `{count}` formatted for the locale. */
  count(base: WorkspacePluralBase, count: number, vars?: Vars): string;
  /** A day (an ISO timestamp) as the locale writes it, in the viewer's time zone. */
  day(iso: string): string;
}

export function useWorkspaceText(): WorkspaceText {
  const locale = useEmbedStore((s) => s.locale);
  return useMemo(
    () => ({
      tx: (key, vars) => appText(locale, key, vars),
      count: (base, count, vars) => appText(locale, pluralKey(locale, base, count), { ...vars, count: formatNumber(locale, count) }),
      day: (iso) => formatDateTime(locale, null, iso, { dateStyle: "medium" }),
    }),
    [locale],
  );
}
