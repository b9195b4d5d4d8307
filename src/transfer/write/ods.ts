import { strToU8, zipSync, type Zippable } from 'fflate';
import type { Db } from '../../db/schema.js';
import { shownFecha } from './csv.js';
import { checkedRow, withStaffSheets, type Column, type Selection, type SheetCell } from './sheets.js';
import { dateFormat, widthOf } from './workbook.js';
import { startWorker } from './worker.js';

export const ODS_TYPE = 'application/vnd.oasis.opendocument.spreadsheet';

/**
 * The selection (sheets.ts) as an OpenDocument spreadsheet (.ods), LibreOffice's own format, with
 * what the .xlsx holds: the same sheets, headers, date cells (showing dd/mm/yyyy, and the time when
 * there is one), numbers and text. A text's lines are paragraphs of its cell. Built in memory.
 */
export async function exportOds(db: Db, selection: Selection = {}): Promise<{ bytes: Buffer; records: number }> {
  // content.xml, a page of rows at a time: one string of it all would be copied and encoded at once.
  const content = [Buffer.from(`${XML}<office:document-content ${NAMESPACES} office:version="1.3"><office:automatic-styles>${AUTOMATIC_STYLES}</office:automatic-styles><office:body><office:spreadsheet>`)];
  let records = 0;
  await withStaffSheets(db, selection, async (sheet) => {
    const { name, columns, pages } = sheet;
    const header = `<table:table-row>${columns.map(({ label }) => `<table:table-cell table:style-name="header" office:value-type="string">${paragraphs(label)}</table:table-cell>`).join('')}</table:table-row>`;
    const widths = columns.map((column) => `<table:table-column table:style-name="${columnStyle(column)}"/>`).join('');
    content.push(Buffer.from(`<table:table table:name="${escaped(name)}">${widths}<table:table-header-rows>${header}</table:table-header-rows>`));
    // The sheet's rows so far, the header included.
    let rows = 1;
    for await (const page of pages) {
      content.push(Buffer.from(page.map((row) => `<table:table-row>${checkedRow(sheet, row, ++rows).map(odsCell).join('')}</table:table-row>`).join('')));
      records += page.length;
    }
    content.push(Buffer.from('</table:table>'));
  });
  content.push(Buffer.from('</office:spreadsheet></office:body></office:document-content>'));
  const files: Zippable = {
    // The package's type comes first, stored as it is: what tells a reader the file is an OpenDocument spreadsheet.
    mimetype: [strToU8(ODS_TYPE), { level: 0 }],
    'META-INF/manifest.xml': strToU8(MANIFEST),
    'content.xml': Buffer.concat(content),
    'styles.xml': strToU8(STYLES),
  };
  const bytes = records <= IN_PROCESS ? zipSync(files) : await zippedInWorker(files);
  return { bytes: Buffer.from(bytes), records };
}

/** Records whose spreadsheet is zipped on the event loop: a few milliseconds. */
const IN_PROCESS = 1000;

/** `files` zipped by a worker thread of its own (zipWorker.ts): checksumming and deflating a large sheet holds the event loop for a tenth of a second or more. */
async function zippedInWorker(files: Zippable): Promise<Uint8Array> {
  const { worker, answer } = startWorker<Uint8Array>('./zipWorker.js');
  try {
    worker.postMessage(files);
    return await answer;
  } finally {
    await worker.terminate();
  }
}

function odsCell(cell: SheetCell): string {
  if (cell === null) return '<table:table-cell/>';
  if (typeof cell === 'number') return `<table:table-cell office:value-type="float" office:value="${cell}"><text:p>${cell}</text:p></table:table-cell>`;
  if (typeof cell === 'string') return `<table:table-cell office:value-type="string">${paragraphs(cell)}</table:table-cell>`;
  // The wall clock as a date without a zone, which spreadsheets show as it is written.
  const format = dateFormat(cell.fecha, cell.timed);
  const value = format === 'dd/mm/yyyy' ? cell.fecha.slice(0, 10) : cell.fecha.slice(0, 23).replace(/\.000$/, '');
  return `<table:table-cell table:style-name="${DATE_STYLES[format]}" office:value-type="date" office:date-value="${value}"><text:p>${shownFecha(cell.fecha, cell.timed)}</text:p></table:table-cell>`;
}

/**
 * A text as paragraphs, one per line. Spaces a reader would drop (a run of them, or one that begins
 * or ends a line) and tabs are written as the elements that keep them. A paragraph has no line
 * ending of its own: `\r\n` reads back as `\n`, which an update counts as unchanged (a carriage
 * return kept as a character would become an empty line when LibreOffice saves the file).
 */
function paragraphs(text: string): string {
  const spaces = (run: string, at: number) => (at === 0 || run.length === 1 ? `<text:s text:c="${run.length}"/>` : ` <text:s text:c="${run.length - 1}"/>`);
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => `<text:p>${escaped(line).replace(/\t/g, '<text:tab/>').replace(/ {2,}|^ | $/g, spaces)}</text:p>`)
    .join('');
}

function escaped(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

const columnStyle = (column: Column) => `col${widthOf(column)}`;

const DATE_STYLES = { 'dd/mm/yyyy': 'date', 'dd/mm/yyyy hh:mm': 'datetime', 'dd/mm/yyyy hh:mm:ss': 'datetimeseconds' } as const;

const XML = '<?xml version="1.0" encoding="UTF-8"?>';

const NAMESPACES = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
].join(' ');

const part = (name: string) => `<number:${name} number:style="long"/>`;
const text = (t: string) => `<number:text>${t}</number:text>`;
const day = [part('day'), text('/'), part('month'), text('/'), part('year')].join('');
const time = [text(' '), part('hours'), text(':'), part('minutes')].join('');

/** Date formats (dd/mm/yyyy, with hh:mm, with hh:mm:ss), the cell styles that use them, the bold header and the columns' widths. */
const AUTOMATIC_STYLES = [
  `<number:date-style style:name="n-date">${day}</number:date-style>`,
  `<number:date-style style:name="n-datetime">${day}${time}</number:date-style>`,
  `<number:date-style style:name="n-datetimeseconds">${day}${time}${text(':')}${part('seconds')}</number:date-style>`,
  ...Object.values(DATE_STYLES).map((name) => `<style:style style:name="${name}" style:family="table-cell" style:parent-style-name="Default" style:data-style-name="n-${name}"/>`),
  '<style:style style:name="header" style:family="table-cell" style:parent-style-name="Default"><style:text-properties fo:font-weight="bold"/></style:style>',
  ...[...new Set((['long text', 'text', 'fecha', 'number'] as const).map((kind) => widthOf({ field: '', label: '', kind })))].map(
    // A character is about 0.2 cm wide in the default font.
    (width) => `<style:style style:name="col${width}" style:family="table-column"><style:table-column-properties style:column-width="${(width * 0.2).toFixed(1)}cm"/></style:style>`,
  ),
].join('');

const STYLES = `${XML}<office:document-styles ${NAMESPACES} office:version="1.3"><office:styles><style:style style:name="Default" style:family="table-cell"/></office:styles></office:document-styles>`;

const MANIFEST = `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
 <manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="${ODS_TYPE}"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
 <manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>
</manifest:manifest>`;
