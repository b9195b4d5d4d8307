import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { it } from 'node:test';
import { root } from './service.js';

// The README and the docs pages link to each other, to their headings and to the code, and name
// the code's files; a page, file or heading renamed must not leave a reference that leads nowhere.

const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

/** A page's text without its code (fenced blocks and inline spans), where a `](…)` is no link. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** The anchors of a page's headings, as GitHub makes them: the text lowercased, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.*?)\s*#*$/gm)) {
    const shown = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const slug = shown.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

it('when the README and docs pages link to a file or a heading, then the file exists and has that heading', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of pages) {
    const text = readFileSync(join(root, page), 'utf8');
    for (const [, target = ''] of prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto: …: not a page of this repository
      checked++;
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push(`${page}: ${target} (no file ${relative(root, file)})`);
        continue;
      }
      if (anchor !== undefined && !anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))) {
        broken.push(`${page}: ${target} (no heading #${anchor} in ${relative(root, file)})`);
      }
    }
  }
  assert.ok(checked >= 40, `the pages' links were found (${checked})`);
  assert.deepEqual(broken, []);
});

it('when the README and docs pages name a file or folder of the code, then it exists', () => {
  const missing: string[] = [];
  let named = 0;
  for (const page of pages) {
    const spans = [...readFileSync(join(root, page), 'utf8').matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
    for (const span of spans) {
      for (const [path = ''] of span.matchAll(/(?<![\w./-])(?:src|test|bench|scripts|web)\/[\w./-]*[\w/]/g)) {
        named++;
        if (!existsSync(join(root, path))) missing.push(`${page}: ${path}`);
      }
    }
  }
  assert.ok(named >= 30, `the pages' file names were found (${named})`);
  assert.deepEqual(missing, []);
});
