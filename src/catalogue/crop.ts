/**
 * Where a crop of `box` pixels starts along a side scaled to `side` pixels, so that the focal point
 * (`focus`, percent of that side) is as near the crop's centre as the picture's edges allow: the
 * renditions cut there, and the admin's previews place the picture the same way.
 */
export const cropStart = (focus: number, side: number, box: number): number =>
  Math.min(side - box, Math.max(0, Math.round((focus / 100) * side - box / 2)));
