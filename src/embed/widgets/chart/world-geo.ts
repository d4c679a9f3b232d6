/**
 * Natural Earth countries (world-atlas, 1:110m) as GeoJSON, loaded once per page from the
 * platform's own assets (the TopoJSON file is part of the embed build: nothing is fetched
 * from elsewhere) and converted with topojson-client. Imported only by map widgets.
 */
import { feature } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import type { FeatureCollection, Geometry } from "geojson";
import countriesUrl from "world-atlas/countries-110m.json?url";

export interface WorldGeo {
  /** One feature per country; `id` is the ISO 3166-1 numeric code ("840"), `properties.name` its name. */
  countries: FeatureCollection<Geometry, { name: string }>;
}

let loading: Promise<WorldGeo> | null = null;

export function loadWorldGeo(): Promise<WorldGeo> {
  loading ??= fetch(countriesUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`world map: ${response.status}`);
      return response.json() as Promise<Topology<{ countries: GeometryCollection<{ name: string }> }>>;
    })
    .then((topology) => ({ countries: feature(topology, topology.objects.countries) as FeatureCollection<Geometry, { name: string }> }))
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}
