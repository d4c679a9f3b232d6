import { describe, expect, it } from "vitest";
import { timePartLabel } from "./time-part-labels";

describe("timePartLabel", () => {
  it("names weekdays Monday first (ISO 1–7) and months, in the viewer's language", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((d) => timePartLabel("en", "dayOfWeek", d))).toEqual([
      "Monday",
      "Tuesday",
      "Wednesday",
      "Thursday",
      "Friday",
      "Saturday",
      "Sunday",
    ]);
    expect(timePartLabel("de", "dayOfWeek", 1)).toBe("Montag");
    expect(timePartLabel("es", "dayOfWeek", 7)).toBe("domingo");
    expect(timePartLabel("en", "monthOfYear", 1)).toBe("January");
    expect(timePartLabel("de", "monthOfYear", 3)).toBe("März");
    expect(timePartLabel("es", "monthOfYear", 12)).toBe("diciembre");
  });

  it("writes hours as a time of day, quarters as Q1–Q4, weeks and days as numbers", () => {
    expect(timePartLabel("de", "hourOfDay", 14)).toBe("14:00");
    expect(timePartLabel("en", "hourOfDay", 0)).toMatch(/^12:00\sAM$/);
    expect(timePartLabel("en", "quarterOfYear", 3)).toBe("Q3");
    expect(timePartLabel("en", "weekOfYear", 43)).toBe("43");
    expect(timePartLabel("en", "dayOfMonth", 31)).toBe("31");
  });

  it("keeps a value outside the part's range as it is", () => {
    expect(timePartLabel("en", "dayOfWeek", 0)).toBe("0");
    expect(timePartLabel("en", "monthOfYear", 13)).toBe("13");
    expect(timePartLabel("en", "hourOfDay", 24)).toBe("24");
    expect(timePartLabel("en", "dayOfWeek", 1.5)).toBe("1.5");
  });
});
