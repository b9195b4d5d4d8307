import { Type, type TSchema } from 'typebox';
import { messages } from '../catalogue/messages.js';
import { decimal } from '../catalogue/numbers.js';
import type { Geo } from '../db/near.js';
import { badRequest } from './errors.js';
import type { RawQuery } from './listQuery.js';

/** The parameters of near and within, on the lists of what has a place (venues, showtimes, what's on). */
export const GEO_PARAMS = ['cerca', 'radio_km', 'bbox'] as const;
const RADIUS = { default: 5, max: 100 };

/**
 * `cerca=<lat>,<lon>` with `radio_km` (default 5, more than 0 and at most 100) and
 * `bbox=<oeste>,<sur>,<este>,<norte>`; undefined when neither is asked. A bad value is a 400
 * naming its parameter; so is `radio_km`, or a sort by distance (`sortsByDistance`), without `cerca`.
 */
export function parseGeo(raw: RawQuery, sortsByDistance: boolean): Geo | undefined {
  const one = (param: string) => [raw[param] ?? []].flat().at(-1);
  const g = messages.geo;
  const numbers = (param: string, count: number, sentence: string) => {
    const values = (one(param) ?? '').split(',').map(decimal);
    if (values.length !== count || values.some((v) => v === undefined)) throw badRequest(sentence);
    return values as number[];
  };
  const latitude = (v: number) => v >= -90 && v <= 90;
  const longitude = (v: number) => v >= -180 && v <= 180;
  const geo: Geo = {};
  if (one('cerca') !== undefined) {
    const [lat = 0, lon = 0] = numbers('cerca', 2, g.cerca);
    if (!latitude(lat) || !longitude(lon)) throw badRequest(g.cerca);
    let radioKm = RADIUS.default;
    if (one('radio_km') !== undefined) {
      const [radius = 0] = numbers('radio_km', 1, g.radio(RADIUS.max));
      if (!(radius > 0 && radius <= RADIUS.max)) throw badRequest(g.radio(RADIUS.max));
      radioKm = radius;
    }
    geo.near = { lat, lon, radioKm };
  } else if (one('radio_km') !== undefined) throw badRequest(g.radioWithoutCerca);
  else if (sortsByDistance) throw badRequest(g.distanceWithoutCerca);
  if (one('bbox') !== undefined) {
    const [oeste = 0, sur = 0, este = 0, norte = 0] = numbers('bbox', 4, g.bbox);
    if (![oeste, este].every(longitude) || ![sur, norte].every(latitude)) throw badRequest(g.bbox);
    if (sur > norte) throw badRequest(g.bboxSouth);
    geo.bbox = { oeste, sur, este, norte };
  }
  return geo.near || geo.bbox ? geo : undefined;
}

/** The API description of the parameters. */
export function geoParams(): Record<string, TSchema> {
  return {
    cerca: Type.Optional(Type.String({ description: 'A point, <lat>,<lon> in degrees: only what lies within radio_km of it (great-circle, of the venue). A venue without coordinates never matches.', examples: ['-34.6037,-58.3816'] })),
    radio_km: Type.Optional(Type.Number({ description: `With cerca: the distance in km, more than 0 and at most ${RADIUS.max} (default ${RADIUS.default}).`, exclusiveMinimum: 0, maximum: RADIUS.max })),
    bbox: Type.Optional(Type.String({ description: 'A box, <oeste>,<sur>,<este>,<norte> in degrees, edges included; oeste > este crosses the antimeridian.', examples: ['-58.53,-34.71,-58.33,-34.52'] })),
  };
}
