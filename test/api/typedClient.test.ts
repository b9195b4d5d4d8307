import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { buildTestApp, send } from '../helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Files served from memory, in a folder of the project, so that `openapi-fetch` and `@types/node` resolve from its node_modules.
const folder = `${root}test/api/typed-client/`;

/** The TypeScript example of docs/api.md's "A typed client", as a reader copies it. */
function docsExample(): string {
  const page = readFileSync(`${root}docs/api.md`, 'utf8');
  const section = page.slice(page.indexOf('**A typed client.**'));
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(example, 'docs/api.md has no TypeScript example under "A typed client"');
  return example;
}

/** Each file's diagnostics, compiled in-process together with `cartelera.d.ts` as the project's own settings would. */
function compile(files: Record<string, string>): Record<string, string[]> {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const memory = new Map(Object.entries(files).map(([name, text]) => [folder + name, text]));
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  host.directoryExists = (name) => folder.startsWith(name.replace(/\/?$/, '/')) || (directoryExists?.call(host, name) ?? true);
  host.fileExists = (name) => memory.has(name) || fileExists.call(host, name);
  host.readFile = (name) => memory.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, version, ...rest) => {
    const text = memory.get(name);
    return text === undefined ? getSourceFile.call(host, name, version, ...rest) : ts.createSourceFile(name, text, version);
  };
  const program = ts.createProgram([...memory.keys()], options, host);
  return Object.fromEntries(
    Object.keys(files).map((name) => [
      name,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(folder + name)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ]),
  );
}

describe('a client generated from the description with openapi-typescript', () => {
  let diagnostics: Record<string, string[]>;
  before(async () => {
    const app = await buildTestApp();
    try {
      const doc = (await send(app, 'GET', '/openapi.json')).json<Parameters<typeof openapiTS>[0]>();
      const types = astToString(await openapiTS(doc as Exclude<Parameters<typeof openapiTS>[0], string | URL | Buffer>));
      const example = docsExample();
      // The example with one value no list takes: the only difference is `_order`.
      const wrong = example.replace("_order: 'desc'", "_order: 'sideways'");
      assert.notEqual(wrong, example);
      diagnostics = compile({ 'cartelera.d.ts': types, 'usage.ts': example, 'wrong.ts': wrong });
    } finally {
      await app.close();
    }
  });

  it("when docs/api.md's example passes numbers as query parameters, the path parameter by title and by id, and If-Match, then it compiles", () => {
    assert.deepEqual(diagnostics['cartelera.d.ts'], []);
    assert.deepEqual(diagnostics['usage.ts'], []);
  });

  it('when _order is a value the list does not take, then the client does not compile, and the compiler names the values it takes', () => {
    const errors = diagnostics['wrong.ts'] ?? [];
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0] ?? '', /^Type '"sideways"' is not assignable to type '"asc" \| "desc"( \| undefined)?'\.$/);
  });
});
