// The .xlsx reader (src/transfer/read/xlsx.ts) against read-excel-file, which read workbooks
// before it: every workbook under test/fixtures (LibreOffice's), one as `cartelera export` writes
// it (write-excel-file), and one written the way Excel writes its parts (prefixes, rich text,
// phonetic runs, inline strings, formulas, errors, gaps, the 1904 date system) give the same
// cells and the same records; a workbook read-excel-file refused is one problem, and no record.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import readXlsxFile from 'read-excel-file/node';
import { messages } from '../../src/catalogue/messages.js';
import { aboutOtherSheets, inResourceOrder, tableReader } from '../../src/transfer/read/table.js';
import type { Cell, Incoming } from '../../src/transfer/read/types.js';
import { openXlsx, readXlsx } from '../../src/transfer/read/xlsx.js';
import { workbookOf } from '../../src/transfer/write/workbook.js';
import { root } from '../service.js';

const fixtures = join(root, 'test', 'fixtures', 'spreadsheets');

/** read-excel-file's sheets as the import read them: text untrimmed, numbers as written; undefined when it refuses the workbook. */
async function theirs(bytes: Buffer): Promise<{ sheet: string; data: Cell[][] }[] | undefined> {
  return (readXlsxFile(bytes, { trim: false, parseNumber: (text: string) => text }) as Promise<{ sheet: string; data: Cell[][] }[]>).catch(() => undefined);
}

/** The reader's sheets, every row it hands on placed at its number, as read-excel-file lays them out. */
function ours(bytes: Buffer): { sheet: string; data: Cell[][] }[] {
  const workbook = openXlsx(bytes);
  const rows = new Map<number, Cell[][]>();
  const row = (index: number, { number, cells }: { number: number; cells: Cell[] }) => {
    const data = rows.get(index) ?? [];
    data[number - 1] = cells;
    rows.set(index, data);
  };
  Array.from(workbook.read(new Set(workbook.sheets.map((s) => s.index)), { row, end: () => {} }));
  return workbook.sheets.map((s) => ({ sheet: s.name, data: rows.get(s.index) ?? [] }));
}

/** A sheet's cells without what only lays them out: the empty cells that pad a row to the sheet's width, and empty rows at its end. */
const laidOut = (data: Cell[][]) => {
  const rows = Array.from(data, (cells) => {
    const trimmed = [...(cells ?? [])];
    while (trimmed.length > 0 && trimmed.at(-1) === null) trimmed.pop();
    return trimmed;
  });
  while (rows.length > 0 && rows.at(-1)?.length === 0) rows.pop();
  return rows;
};

/** The records read-excel-file's cells gave before: the same table rules, a sheet at a time. */
function recordsBefore(file: string, sheets: { sheet: string; data: Cell[][] }[]): Incoming[] {
  const named = sheets.map(({ sheet, data }) => ({ name: sheet, rows: data.map((cells, i) => ({ number: i + 1, cells })) }));
  const items = aboutOtherSheets(file, named.map((s) => ({ name: s.name, filled: s.rows.some((r) => r.cells.some((c) => c !== null && (typeof c !== 'string' || c.trim() !== ''))) })));
  for (const sheet of inResourceOrder(named)) {
    const table = tableReader(sheet.resource, { file, sheet: sheet.name });
    items.push(...sheet.rows.flatMap((r) => table.row(r)), ...table.end());
  }
  return items;
}

async function readAll(file: string, bytes: Buffer): Promise<Incoming[]> {
  const items: Incoming[] = [];
  for await (const batch of readXlsx(file, bytes)) items.push(...batch);
  return items;
}

async function assertSameAsBefore(file: string, bytes: Buffer): Promise<void> {
  const before = await theirs(bytes);
  assert.ok(before, `read-excel-file reads ${file}`);
  const after = ours(bytes);
  assert.deepEqual(after.map((s) => s.sheet), before.map((s) => s.sheet), file);
  after.forEach((sheet, i) => assert.deepStrictEqual(laidOut(sheet.data), laidOut(before[i]?.data ?? []), `${file}, ${sheet.sheet}`));
  assert.deepStrictEqual(await readAll(file, bytes), recordsBefore(file, before), file);
}

/** A workbook from its parts' text. */
const zipped = (parts: Record<string, string>) => Buffer.from(zipSync(Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, strToU8(text)]))));

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const RELATION = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A workbook as Excel lays its parts out (CRLF after each declaration, shared strings and styles after the sheets), with `sheets` as given. */
function excelLike(sheets: Record<string, string>, options: { date1904?: boolean; strings?: string[]; prefix?: boolean } = {}): Record<string, string> {
  const names = Object.keys(sheets);
  const parts: Record<string, string> = {
    '[Content_Types].xml': `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    'xl/workbook.xml': `${DECLARATION}<workbook ${MAIN}><workbookPr${options.date1904 ? ' date1904="1"' : ''}/><sheets>${names.map((name, i) => `<sheet name="${name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `${DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${names.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${RELATION}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}<Relationship Id="rId90" Type="${RELATION}/styles" Target="styles.xml"/><Relationship Id="rId91" Type="${RELATION}/sharedStrings" Target="/xl/sharedStrings.xml"/></Relationships>`,
  };
  names.forEach((name, i) => {
    const x = options.prefix ? 'x:' : '';
    parts[`xl/worksheets/sheet${i + 1}.xml`] = `${DECLARATION}<${x}worksheet ${options.prefix ? MAIN.replace('xmlns=', 'xmlns:x=') : MAIN}><${x}dimension ref="A1:E9"/><${x}sheetData>${sheets[name]?.replaceAll('<', `<${x}`).replaceAll(`<${x}/`, `</${x}`)}</${x}sheetData><${x}mergeCells count="0"/></${x}worksheet>`;
  });
  parts['xl/styles.xml'] = `${DECLARATION}<styleSheet ${MAIN}><numFmts count="4"><numFmt numFmtId="164" formatCode="dd/mm/yyyy hh:mm"/><numFmt numFmtId="165" formatCode="[$-409]mmmm\\ yyyy;@"/><numFmt numFmtId="166" formatCode="0.00%"/><numFmt numFmtId="167" formatCode="&quot;Día &quot;d"/></numFmts><cellStyleXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellStyleXfs><cellXfs count="7"><xf numFmtId="0" xfId="0"/><xf numFmtId="14" xfId="0"/><xf numFmtId="164" xfId="0"/><xf numFmtId="165" xfId="0"/><xf numFmtId="166" xfId="0"/><xf xfId="1"/><xf numFmtId="167" xfId="0"/></cellXfs></styleSheet>`;
  const strings = options.strings ?? [];
  parts['xl/sharedStrings.xml'] = `${DECLARATION}<sst ${MAIN} count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si>${s}</si>`).join('')}</sst>`;
  return parts;
}

const STRINGS = [
  '<t>Nombre</t>',
  '<t xml:space="preserve">  Drama con espacios  </t>',
  '<r><t>Come</t></r><r><rPr><b/></rPr><t xml:space="preserve">dia </t></r><r><t>negra</t></r>',
  '<t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh><phoneticPr fontId="1"/>',
  '<t>Línea_x000D_\nsiguiente</t>',
  '<t>Título</t>',
  '<t></t>',
  '<t>   </t>',
  '<t>a &amp; b &lt;c&gt;</t>',
  '<t>_x005F_x0041_ literal</t>',
];

const CATEGORIES = [
  '<row r="1"><c r="A1" t="s"><v>0</v></c></row>',
  '<row r="2"><c r="A2" t="s"><v>1</v></c></row>',
  '<row r="3" spans="1:3"><c r="A3" t="s"><v>2</v></c><c r="B3" s="1"/><c r="C3" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>',
  '<row r="5"><c r="A5" t="inlineStr"><is><r><t>Mús</t></r><r><t>ica</t></r><rPh><t>ムシカ</t></rPh></is></c></row>',
  '<row><c r="A6" t="s"><v>3</v></c></row>',
  '<row r="7"><c r="A7" t="str"><f>CONCAT("Ter","ror")</f><v>Terror</v></c><c r="B7" t="str"><f>""</f><v></v></c><c r="C7" t="str"><f>X()</f></c></row>',
  '<row r="8"><c r="A8" t="s"><v>6</v></c><c r="B8" t="s"><v>7</v></c><c r="D8" t="inlineStr"><is><t xml:space="preserve"> con\r\nCRLF </t></is></c></row>',
  '<row r="9"><c r="A9" t="s"><v>8</v></c><c r="E9" t="s"><v>9</v></c></row>',
].join('\r\n');

const MOVIES = [
  '<row r="1"><c r="A1" t="s"><v>5</v></c><c r="B1" t="inlineStr"><is><t>Sinopsis</t></is></c><c r="C1" t="inlineStr"><is><t>Duración</t></is></c><c r="D1" t="inlineStr"><is><t>Categoría</t></is></c><c r="E1" t="inlineStr"><is><t>Estreno</t></is></c></row>',
  '<row r="2"><c r="A2" t="inlineStr"><is><t>Nueve reinas</t></is></c><c r="B2" t="s"><v>4</v></c><c r="C2"><v>114</v></c><c r="D2" t="s"><v>0</v></c><c r="E2" s="1"><v>46000</v></c></row>',
  '<row r="3"><c r="A3" t="inlineStr"><is><t>Tiempo de valientes</t></is></c><c r="C3" s="5"><v>0.0777777777777778</v></c><c r="E3" s="2"><v>46000.854166666664</v></c><c r="F3" s="3"><v>45292</v></c><c r="G3" s="4"><v>0.25</v></c><c r="H3" s="6"><v>12</v></c></row>',
  '<row r="4"><c r="A4" t="inlineStr"><is><t>Bool y fecha</t></is></c><c r="B4" t="b"><v>1</v></c><c r="C4" t="b"><v>0</v></c><c r="E4" t="d"><v>2026-11-14T20:30:00Z</v></c><c r="F4" t="n"><v>1.5E+3</v></c></row>',
].join('');

describe('.xlsx read as read-excel-file read it', () => {
  it('when the workbook is one of the fixtures (LibreOffice\'s), then its cells and records are read-excel-file\'s', async () => {
    const files = readdirSync(fixtures).filter((f) => f.endsWith('.xlsx'));
    assert.ok(files.length >= 6, files.join(', '));
    for (const file of files) await assertSameAsBefore(file, readFileSync(join(fixtures, file)));
  });

  it('when `cartelera export` wrote the workbook (write-excel-file), then its cells and records are read-excel-file\'s: text with \\r\\n and spaces as written, numbers, dates of every format', async () => {
    const bytes = await workbookOf([
      {
        name: 'Categorías',
        columns: [{ field: 'id', label: 'Id', kind: 'number' }, { field: 'nombre', label: 'Nombre', kind: 'text' }],
        rows: [[1, 'Drama'], [2, '  Comedia  '], [3, null]],
      },
      {
        name: 'Eventos urbanos',
        columns: [
          { field: 'titulo', label: 'Título', kind: 'text' },
          { field: 'descripcion', label: 'Descripción', kind: 'long text' },
          { field: 'fecha', label: 'Fecha y hora', kind: 'fecha' },
          { field: 'categoria', label: 'Categoría', kind: 'text' },
          { field: 'lugar', label: 'Lugar', kind: 'text' },
        ],
        rows: [
          ['Noche de los museos', 'Dos líneas\r\nen Windows', { fecha: '2026-11-14T20:30:00.000+00:00' }, 'Drama', 'Museos'],
          ['Feria', 'Una\nsola\rlínea <&>', { fecha: '2026-11-20T00:00:00.000+00:00' }, 'Drama', null],
          ['Función', null, { fecha: '2026-12-01T21:15:30.000+00:00', timed: true }, '  Comedia  ', 'Sala 1'],
        ],
      },
      { name: 'Notas', columns: [{ field: 'x', label: 'Nota', kind: 'text' }], rows: [['algo']] },
    ] as Parameters<typeof workbookOf>[0]);
    await assertSameAsBefore('export.xlsx', bytes);
  });

  it('when the workbook is laid out as Excel writes it, then rich text, phonetic runs, inline strings, formulas, errors, gaps, booleans and date formats read as read-excel-file read them', async () => {
    await assertSameAsBefore('excel.xlsx', zipped(excelLike({ Categorías: CATEGORIES, Películas: MOVIES }, { strings: STRINGS })));
    await assertSameAsBefore('prefijos.xlsx', zipped(excelLike({ Categorías: CATEGORIES, Películas: MOVIES }, { strings: STRINGS, prefix: true })));
    await assertSameAsBefore('1904.xlsx', zipped(excelLike({ Películas: MOVIES }, { strings: STRINGS, date1904: true })));
  });

  it('when read-excel-file refused a workbook (a part missing, a cell it cannot read, rows out of order, XML not well formed, an archive cut short), then it is one problem and no record', async () => {
    const good = excelLike({ Categorías: CATEGORIES, Películas: MOVIES }, { strings: STRINGS });
    const without = (name: string) => Object.fromEntries(Object.entries(good).filter(([part]) => part !== name));
    const changed = (name: string, from: string, to: string) => ({ ...good, [name]: good[name]?.replace(from, to) ?? '' });
    const broken: Record<string, Buffer> = {
      'sin workbook.xml': zipped(without('xl/workbook.xml')),
      'sin relaciones': zipped(without('xl/_rels/workbook.xml.rels')),
      'sin la hoja': zipped(without('xl/worksheets/sheet2.xml')),
      'texto compartido que no está': zipped(changed('xl/worksheets/sheet1.xml', '<v>9</v>', '<v>10</v>')),
      'booleano 2': zipped(changed('xl/worksheets/sheet2.xml', 't="b"><v>1</v>', 't="b"><v>2</v>')),
      'tipo desconocido': zipped(changed('xl/worksheets/sheet2.xml', 't="b"><v>0</v>', 't="x"><v>0</v>')),
      'estilo que no está': zipped(changed('xl/worksheets/sheet2.xml', 's="4"', 's="40"')),
      'filas fuera de orden': zipped(changed('xl/worksheets/sheet2.xml', '<row r="3">', '<row r="1">')),
      'celdas fuera de orden': zipped(changed('xl/worksheets/sheet2.xml', '<c r="C2">', '<c r="A2">')),
      'sin dirección': zipped(changed('xl/worksheets/sheet2.xml', '<c r="C2">', '<c>')),
      'sin sheetData': zipped(changed('xl/worksheets/sheet2.xml', 'sheetData>', 'datos>')),
      'XML roto': zipped(changed('xl/worksheets/sheet2.xml', '</row>', '</rowx>')),
      'fecha imposible': zipped(changed('xl/worksheets/sheet2.xml', '<v>2026-11-14T20:30:00Z</v>', '<v>mañana</v>')),
    };
    const whole = zipped(good);
    broken['archivo cortado'] = whole.subarray(0, whole.length - 200);
    broken['no es zip'] = Buffer.from('%PDF-1.4 no es un libro');
    for (const [name, bytes] of Object.entries(broken)) {
      assert.equal(await theirs(bytes), undefined, `read-excel-file refuses "${name}"`);
      assert.deepEqual(await readAll(`${name}.xlsx`, bytes), [{ problem: messages.transfer.notWorkbook, place: { file: `${name}.xlsx` } }], name);
    }
    // The workbook they were made from is read, with its records.
    assert.ok((await readAll('bien.xlsx', whole)).some((item) => 'record' in item));
  });

  it('when read-excel-file was wrong (a chart sheet, a part that is not UTF-8, date1904="true"), then the reader is not', async () => {
    const good = excelLike({ Categorías: CATEGORIES, Películas: MOVIES }, { strings: STRINGS });
    const records = (items: Incoming[]) => items.filter((item) => 'record' in item);
    // A chart sheet has no worksheet part: an empty sheet, where read-excel-file's sheet had no rows at all (the import failed).
    const chart = { ...good, 'xl/workbook.xml': good['xl/workbook.xml']?.replace('</sheets>', '<sheet name="Gráfico" sheetId="9" r:id="rId9"/></sheets>') ?? '' };
    assert.deepEqual(await readAll('grafico.xlsx', zipped(chart)), await readAll('bien.xlsx', zipped(good)).then((items) => items.map((item) => ({ ...item, place: { ...item.place, file: 'grafico.xlsx' } }))));
    // Bytes that are not UTF-8 are a damaged part, not text with U+FFFD in it.
    const parts = Object.fromEntries(Object.entries(good).map(([name, text]) => [name, strToU8(text)]));
    const strings = parts['xl/sharedStrings.xml'] ?? new Uint8Array();
    strings[strings.indexOf(0xc3)] = 0xff;
    const latin = Buffer.from(zipSync(parts));
    assert.ok(JSON.stringify(await theirs(latin)).includes('\ufffd'));
    assert.deepEqual(await readAll('latin.xlsx', latin), [{ problem: messages.transfer.notWorkbook, place: { file: 'latin.xlsx' } }]);
    // `true` is the schema's other way of writing 1.
    const byOne = records(await readAll('1904.xlsx', zipped(excelLike({ Películas: MOVIES }, { strings: STRINGS, date1904: true }))));
    const byTrue = records(await readAll('1904.xlsx', zipped({ ...excelLike({ Películas: MOVIES }, { strings: STRINGS }), 'xl/workbook.xml': excelLike({ Películas: MOVIES }, { date1904: true })['xl/workbook.xml']?.replace('date1904="1"', 'date1904="true"') ?? '' })));
    assert.deepEqual(byTrue, byOne);
    assert.notDeepEqual(byOne, records(await readAll('1904.xlsx', zipped(excelLike({ Películas: MOVIES }, { strings: STRINGS })))));
  });
});
