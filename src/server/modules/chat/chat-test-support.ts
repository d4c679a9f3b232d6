/** Reading the chat's NDJSON answers in tests. */
export type Line = Record<string, unknown>;

/** Every line of an NDJSON response, parsed; a line that is not JSON fails the test. */
export async function readNdjson(res: Response): Promise<Line[]> {
  const text = await res.text();
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Line);
}

/** The answer's words: its text lines joined. */
export function textOfLines(lines: Line[]): string {
  return lines
    .filter((l) => l.type === "text")
    .map((l) => l.text)
    .join("");
}
