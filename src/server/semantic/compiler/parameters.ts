import type { Dialect, ZoneBinding } from "./dialect";

export type ParameterValue = string | number | boolean;

/** Values of one statement's positional parameters, numbered in the order they are bound. */
export class QueryParameters {
  readonly values: ParameterValue[] = [];

  constructor(private readonly dialect: Dialect) {}

  add(value: ParameterValue): string {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length);
  }

  /** A TIMESTAMP parameter holding an instant as naive UTC. */
  instant(instant: Date): string {
    return this.dialect.cast(this.add(this.dialect.instantValue(instant)), "timestamp");
  }

  /** The query zone, bound once on first use: an unused parameter has no type in Postgres. */
  zone(name: string, utc: boolean): ZoneBinding {
    let bound: string | undefined;
    return {
      name,
      utc,
      parameter: () => (bound ??= this.dialect.cast(this.add(name), "text")),
    };
  }
}
