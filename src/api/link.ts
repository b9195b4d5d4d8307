import type { Window } from '../db/listing.js';
import type { RawQuery } from './listQuery.js';

/** RFC 8288 `Link` header for a windowed answer, keeping the list's other parameters (`listParams`). */
export function linkHeader(path: string, raw: RawQuery, window: Window, total: number): string {
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / window.limit) * window.limit;
  const pages: [string, number][] = [['first', 0]];
  if (window.offset > 0) pages.push(['prev', Math.max(0, window.offset - window.limit)]);
  if (window.offset + window.limit < total) pages.push(['next', window.offset + window.limit]);
  pages.push(['last', lastOffset]);
  return pages.map(([rel, offset]) => `<${pageUrl(path, raw, window, offset)}>; rel="${rel}"`).join(', ');
}

function pageUrl(path: string, raw: RawQuery, window: Window, offset: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(raw)) {
    for (const v of [value ?? []].flat()) params.append(name, v);
  }
  const set = (name: string, value: number) => params.set(name, String(value));
  if (window.style === 'page') {
    set('_page', offset / window.limit + 1);
    set('_limit', window.limit);
  } else if (window.style === 'start') {
    set('_start', offset);
    if (params.has('_end')) set('_end', offset + window.limit);
  } else {
    set('offset', offset);
  }
  return `${path}?${params.toString()}`;
}
