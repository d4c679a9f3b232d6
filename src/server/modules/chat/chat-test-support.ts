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
