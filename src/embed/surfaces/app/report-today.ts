/** Today in the viewer's calendar, as `YYYY-MM-DD`: relative ranges are compared as the dates they mean on it. */
export function todayOf(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}
