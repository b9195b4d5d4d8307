import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The arrows of src/ run one way: each file imports only from its own layer or the ones below, and
// no folders import each other in a circle, with the layers as docs/development.md draws them. No
// store is involved: it reads the sources' import statements (TypeScript's own scanner).

const root = fileURLToPath(new URL('..', import.meta.url));

/** The layers, lowest first, from the block under docs/development.md's "## Layers": one line a layer, its units (folders, or files of src/ itself). */
function documentedLayers(): string[][] {
  const page = readFileSync(join(root, 'docs', 'development.md'), 'utf8');
  const block = /\n## Layers\n[\s\S]*?```text\n([\s\S]*?)```/.exec(page)?.[1];
  assert.ok(block, 'docs/development.md draws the layers in a text block under "## Layers"');
  return block.split('\n').map((line) => line.trim().split(/\s+/).filter(Boolean)).filter((units) => units.length > 0);
}

/** Every .ts file of src/, by its path there (`db/listing.ts`), with its text. */
function sources(): Map<string, string> {
  const src = join(root, 'src');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  return new Map(files.map((f) => [f.split('\\').join('/'), readFileSync(join(src, f), 'utf8')]));
}

/** The unit a file of src/ belongs to: its top folder, or the file itself when it sits in src/. */
const unitOf = (file: string) => file.split('/')[0] ?? file;

interface Arrow {
  from: string;
  to: string;
}

/** The imports between files of src/ (static, re-exports, type-only and dynamic alike), resolved to paths there. */
function arrowsOf(files: Map<string, string>): Arrow[] {
  return [...files].flatMap(([from, text]) =>
    ts.preProcessFile(text, true, true).importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('./') || name.startsWith('../'))
      .map((name) => ({ from, to: posix.normalize(posix.join(posix.dirname(from), name)).replace(/\.js$/, '.ts') })),
  );
}

/** What is wrong with the arrows: a file outside every layer, an import that runs up a layer, or a circle of units. */
function wrongArrows(files: Map<string, string>, layers: string[][]): string[] {
  const layerOf = new Map(layers.flatMap((units, i) => units.map((unit) => [unit, i] as const)));
  const wrong: string[] = [];
  for (const unit of new Set([...files.keys()].map(unitOf))) {
    if (!layerOf.has(unit)) wrong.push(`${unit} is in no layer`);
  }
  const between = new Map<string, Set<string>>();
  for (const { from, to } of arrowsOf(files)) {
    const [a, b] = [unitOf(from), unitOf(to)];
    if (a === b) continue;
    const [fromLayer, toLayer] = [layerOf.get(a), layerOf.get(b)];
    if (fromLayer !== undefined && toLayer !== undefined && fromLayer < toLayer) wrong.push(`${from} imports ${to}, from a higher layer`);
    between.set(a, (between.get(a) ?? new Set()).add(b));
  }
  return [...wrong, ...circles(between).map((circle) => `a circle: ${circle.join(' → ')}`)];
}

/** The circles of a graph, each once, as the path from its least unit back to it. */
function circles(graph: Map<string, Set<string>>): string[][] {
  const found = new Map<string, string[]>();
  const walk = (path: string[]) => {
    const last = path.at(-1) as string;
    for (const next of graph.get(last) ?? []) {
      const at = path.indexOf(next);
      if (at < 0) walk([...path, next]);
      else {
        // Told from its least unit, so that each circle reads the same wherever the walk met it.
        const circle = path.slice(at);
        const start = circle.indexOf([...circle].sort()[0] as string);
        const told = [...circle.slice(start), ...circle.slice(0, start)];
        found.set(told.join(' '), [...told, told[0] as string]);
      }
    }
  };
  for (const unit of graph.keys()) walk([unit]);
  return [...found.values()];
}

describe('the layers of src/', () => {
  it('when every import of src/ is read, then none runs up a layer or closes a circle of folders', () => {
    const layers = documentedLayers();
    assert.deepEqual(wrongArrows(sources(), layers), []);
  });

  it('when a lower layer imports a higher one, or two folders import each other, then the check names each arrow', () => {
    const layers = [['catalogue'], ['db'], ['changes', 'cache'], ['api']];
    const files = new Map([
      ['catalogue/refusal.ts', "export class Refusal extends Error {}"],
      ['db/listing.ts', "import type { Refusal } from '../catalogue/refusal.js';\nexport { badRequest } from '../api/errors.js';"],
      ['changes/undo.ts', "import { versions } from '../cache/versions.js';\nconst later = () => import('../api/errors.js');"],
      ['cache/versions.ts', "// import { undo } from '../changes/undo.js' is a comment\nimport { undoChange } from '../changes/undo.js';"],
      ['api/errors.ts', "import { Refusal } from '../catalogue/refusal.js';"],
      ['ops/health.ts', "import { Refusal } from '../catalogue/refusal.js';"],
    ]);
    assert.deepEqual(wrongArrows(files, layers).sort(), [
      'a circle: cache → changes → cache',
      'changes/undo.ts imports api/errors.ts, from a higher layer',
      'db/listing.ts imports api/errors.ts, from a higher layer',
      'ops is in no layer',
    ]);
  });
});
