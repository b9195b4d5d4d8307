import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/**
 * Near and within, on plain numeric columns and the same SQL on both stores (no PostGIS, no
 * SpatiaLite): a bounding box on the indexed `latitud`/`longitud` first, then the exact
 * great-circle (haversine) distance. A venue without coordinates never matches.
 */

/** `cerca=<lat>,<lon>` and `radio_km`. */
export interface Near {
  lat: number;
  lon: number;
  radioKm: number;
}

/** `bbox=<oeste>,<sur>,<este>,<norte>`, edges included; `oeste > este` crosses the antimeridian. */
export interface Bbox {
  oeste: number;
  sur: number;
  este: number;
  norte: number;
}

export interface Geo {
  near?: Near;
  bbox?: Bbox;
}

/** The mean Earth radius (IUGG), in km. */
const EARTH_KM = 6371.0088;
const KM_PER_DEGREE = (EARTH_KM * Math.PI) / 180;

/** The great-circle distance in km from `near` to the point of columns `lat`, `lon` (haversine). */
export function distanceKm(near: Pick<Near, 'lat' | 'lon'>, lat: RawBuilder<unknown>, lon: RawBuilder<unknown>): RawBuilder<number> {
  const φ = (near.lat * Math.PI) / 180;
  const half = (degrees: RawBuilder<unknown>) => sql`sin(radians(${degrees}) / 2)`;
  const dLat = half(sql`${lat} - ${near.lat}`);
  const dLon = half(sql`${lon} - ${near.lon}`);
  // Within the 100 km a search may ask for, the root stays far below 1, asin's limit.
  return sql<number>`(${2 * EARTH_KM} * asin(sqrt(${dLat} * ${dLat} + ${Math.cos(φ)} * cos(radians(${lat})) * ${dLon} * ${dLon})))`;
}

/** What `geo` selects of the points in columns `lat`, `lon`, as conditions. */
export function placeConditions(geo: Geo, lat: RawBuilder<unknown>, lon: RawBuilder<unknown>): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (geo.bbox) where.push(...boxConditions(geo.bbox, lat, lon));
  if (geo.near) {
    // The box around the circle, a little wider than exact, which the indexes narrow; then the circle.
    const { lat: φ, lon: λ, radioKm } = geo.near;
    const dLat = (radioKm / KM_PER_DEGREE) * 1.001;
    const cosφ = Math.cos((Math.min(89.9, Math.abs(φ) + dLat) * Math.PI) / 180);
    const dLon = dLat / cosφ;
    where.push(sql<SqlBool>`${lat} between ${φ - dLat} and ${φ + dLat}`);
    if (dLon < 180) {
      const west = λ - dLon, east = λ + dLon;
      where.push(...boxConditions({ sur: -90, norte: 90, oeste: west < -180 ? west + 360 : west, este: east > 180 ? east - 360 : east }, lat, lon));
    }
    where.push(sql<SqlBool>`${distanceKm(geo.near, lat, lon)} <= ${radioKm}`);
  }
  return where;
}

function boxConditions(box: Bbox, lat: RawBuilder<unknown>, lon: RawBuilder<unknown>): Expression<SqlBool>[] {
  return [
    sql<SqlBool>`${lat} between ${box.sur} and ${box.norte}`,
    box.oeste <= box.este ? sql<SqlBool>`${lon} between ${box.oeste} and ${box.este}` : sql<SqlBool>`(${lon} >= ${box.oeste} or ${lon} <= ${box.este})`,
  ];
}

/** What `geo` selects of records that name a venue in column `lugarId`: those at a venue it selects. */
export function venueConditions(geo: Geo, lugarId: RawBuilder<unknown>): Expression<SqlBool>[] {
  const where = placeConditions(geo, sql.ref('lugares.latitud'), sql.ref('lugares.longitud'));
  return where.length === 0 ? [] : [sql<SqlBool>`${lugarId} in (select lugares.id from lugares where ${sql.join(where, sql` and `)})`];
}

/** The distance from `near` of the venue a record names in column `lugarId`, for ordering. */
export function venueDistanceKm(near: Near, lugarId: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`(select ${distanceKm(near, sql.ref('lugares.latitud'), sql.ref('lugares.longitud'))} from lugares where lugares.id = ${lugarId})`;
}
