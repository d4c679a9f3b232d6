// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { DateField } from "./date-field";

afterEach(cleanup);

function Harness(props: { initial: string; locale: "de-DE" | "en-US"; changes: string[] }) {
  const [value, setValue] = useState(props.initial);
  return (
    <DateField
      locale={props.locale}
      label="Order date from"
      value={value}
      onChange={(next) => {
        props.changes.push(next);
        setValue(next);
      }}
    />
  );
}

describe("DateField", () => {
  it("shows the date as the embed's locale writes it, whatever the browser's", () => {
    render(<Harness initial="2025-03-15" locale="de-DE" changes={[]} />);
    const field = screen.getByRole("textbox", { name: "Order date from" });
    expect((field as HTMLInputElement).value).toBe("15.03.2025");
    expect(field.getAttribute("placeholder")).toBe("TT.MM.JJJJ");
    expect(screen.getByRole("button", { name: "Datum auswählen: Order date from" })).toBeTruthy();
  });

  it("passes on a whole date typed in the locale's order when the field is left, and nothing half typed", () => {
    const changes: string[] = [];
    render(<Harness initial="" locale="de-DE" changes={changes} />);
    const field = screen.getByRole("textbox", { name: "Order date from" }) as HTMLInputElement;
    fireEvent.change(field, { target: { value: "1.4" } });
    fireEvent.blur(field);
    expect(changes).toEqual([]);
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(field.title).toBe("Kein Datum: bitte als TT.MM.JJJJ schreiben");
    fireEvent.change(field, { target: { value: "1.4.2025" } });
    fireEvent.keyDown(field, { key: "Enter" });
    expect(changes).toEqual(["2025-04-01"]);
    expect(field.value).toBe("01.04.2025");
    expect(field.getAttribute("aria-invalid")).toBeNull();
    fireEvent.change(field, { target: { value: "" } });
    fireEvent.blur(field);
    expect(changes).toEqual(["2025-04-01", ""]);
  });

  it("reads month first in American English, and takes a date from the browser's calendar", () => {
    const changes: string[] = [];
    const { container } = render(<Harness initial="" locale="en-US" changes={changes} />);
    const field = screen.getByRole("textbox", { name: "Order date from" }) as HTMLInputElement;
    fireEvent.change(field, { target: { value: "4/1/2025" } });
    fireEvent.blur(field);
    expect(changes).toEqual(["2025-04-01"]);
    fireEvent.change(container.querySelector("input[type=date]")!, { target: { value: "2025-06-30" } });
    expect(changes).toEqual(["2025-04-01", "2025-06-30"]);
    expect(field.value).toBe("06/30/2025");
  });
});
