import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';

/**
 * The layout every clearing document shares, on pdfkit: an A4 page with the exchange's heading, an
 * information block, tables that continue on new pages under their header row, and "page i of n" on
 * every page. Text is set in DejaVu Sans, embedded (subset) from the dejavu-fonts-ttf package, so
 * ă â î ș ț (comma below) render and extract as themselves whatever fonts the reader's machine has.
 */

const require = createRequire(import.meta.url);
const REGULAR = 'regular';
const BOLD = 'bold';

/**
 * The two faces, parsed once and shared by every document: fontkit decodes a font's tables as text
 * is laid out, so a font parsed per document pays that again each time (several times slower).
 * pdfkit embeds a subset of the glyphs each document uses, so sharing changes nothing in the output.
 */
let faces: { regular: FontSource; bold: FontSource } | null = null;
type FontSource = PDFKit.Mixins.PDFFontSource;

function loadFace(path: string): FontSource {
  const font = fontkit.create(readFileSync(path));
  // pdfkit 0.20 takes a fontkit font as a font source (PDFFontFactory.open); its types predate that.
  return font as unknown as FontSource;
}

const MARGIN = 40;
const FOOTER_HEIGHT = 24;
const TABLE_FONT_SIZE = 8;
const ROW_HEIGHT = 14;
/** A long asset name (or header) wraps onto this many lines of its cell before it is cut. */
const MAX_CELL_LINES = 3;
const CELL_PADDING = 3;
const HEADER_FILL = '#e6e9ef';
const RULE_COLOR = '#9aa3b2';

/** Width of each character at 1000 pt, by weight, shared by every document. */
const characterWidths = new Map<string, number>();

export interface TableColumn {
  header: string;
  /** A share of the table's width; the columns' shares are scaled to the page. */
  weight: number;
  align: 'left' | 'right';
}

export interface DocumentMeta {
  title: string;
  author: string;
  subject: string;
  /** The PDF's creation date, from the data (never the clock), so the same input gives the same bytes. */
  createdAt: Date;
  layout: 'portrait' | 'landscape';
  /** Written in the footer of every page, left of the page number. */
  footer: string;
  pageLabel: (page: number, pages: number) => string;
}

export class DocumentWriter {
  private readonly doc: PDFKit.PDFDocument;
  private y: number;

  constructor(private readonly meta: DocumentMeta) {
    this.doc = new PDFDocument({
      size: 'A4',
      layout: meta.layout,
      margin: MARGIN,
      bufferPages: true,
      // No default face: pdfkit would load Helvetica's metrics for nothing.
      font: null as unknown as string,
      info: { Title: meta.title, Author: meta.author, Subject: meta.subject, Creator: meta.author, CreationDate: meta.createdAt, ModDate: meta.createdAt },
    });
    faces ??= { regular: loadFace(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')), bold: loadFace(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')) };
    this.doc.registerFont(REGULAR, faces.regular);
    this.doc.registerFont(BOLD, faces.bold);
    this.doc.font(REGULAR);
    this.y = MARGIN;
  }

  private get left(): number {
    return MARGIN;
  }

  private get width(): number {
    return this.doc.page.width - 2 * MARGIN;
  }

  private get bottom(): number {
    return this.doc.page.height - MARGIN - FOOTER_HEIGHT;
  }

  /** Starts a new page when `height` more points would run into the footer; true when it did. */
  private ensureRoom(height: number): boolean {
    if (this.y + height <= this.bottom) return false;
    this.doc.addPage();
    this.y = MARGIN;
    return true;
  }

  /** Text at a point, never wrapped nor moved to a new page by pdfkit: the writer places everything. */
  private put(text: string, x: number, y: number, size: number, bold = false): void {
    this.doc.font(bold ? BOLD : REGULAR).fontSize(size).text(text, x, y, { lineBreak: false });
  }

  /** Summed advance widths of the characters, each measured once (a layout per string costs far more; kerning is a fraction of a point). */
  private textWidth(text: string, size: number, bold = false): number {
    let units = 0;
    for (const character of text) {
      const key = `${bold ? 'b' : 'r'}${character}`;
      let width = characterWidths.get(key);
      if (width === undefined) {
        width = this.doc.font(bold ? BOLD : REGULAR).fontSize(1000).widthOfString(character);
        characterWidths.set(key, width);
      }
      units += width;
    }
    return (units * size) / 1000;
  }

  /** The text cut to `width` with an ellipsis (a long asset name must not spill into the next column). */
  private clipToWidth(text: string, width: number, size: number, bold = false): string {
    if (this.textWidth(text, size, bold) <= width) return text;
    let cut = text;
    while (cut.length > 0 && this.textWidth(`${cut}…`, size, bold) > width) cut = cut.slice(0, -1);
    return `${cut}…`;
  }

  /** Words into at most `maxLines` lines of `width`, the last cut to fit. */
  private wrap(text: string, width: number, size: number, bold: boolean, maxLines: number): string[] {
    const lines: string[] = [];
    let current = '';
    for (const word of text.split(' ')) {
      const candidate = current === '' ? word : `${current} ${word}`;
      if (current !== '' && this.textWidth(candidate, size, bold) > width) {
        lines.push(current);
        current = word;
      } else current = candidate;
    }
    if (current !== '') lines.push(current);
    const kept = lines.length <= maxLines ? lines : [...lines.slice(0, maxLines - 1), lines.slice(maxLines - 1).join(' ')];
    // A single word wider than the cell (a long code) is cut too.
    return kept.map((line) => this.clipToWidth(line, width, size, bold));
  }

  heading(exchange: string, issuer: string, title: string): void {
    this.put(exchange, this.left, this.y, 14, true);
    this.y += 19;
    this.put(issuer, this.left, this.y, 9);
    this.y += 18;
    this.put(title, this.left, this.y, 13, true);
    this.y += 22;
  }

  /** Label and value pairs, the labels in a column of their own. */
  info(rows: ReadonlyArray<readonly [string, string]>, size = 9): void {
    const labelWidth = Math.max(...rows.map(([label]) => this.textWidth(`${label}:`, size, true))) + 8;
    for (const [label, value] of rows) {
      this.ensureRoom(size + 5);
      this.put(`${label}:`, this.left, this.y, size, true);
      this.put(this.clipToWidth(value, this.width - labelWidth, size), this.left + labelWidth, this.y, size);
      this.y += size + 5;
    }
    this.y += 8;
  }

  note(text: string): void {
    this.ensureRoom(14);
    this.put(text, this.left, this.y, 8);
    this.y += 14;
  }

  sectionTitle(text: string): void {
    this.ensureRoom(18 + ROW_HEIGHT);
    this.put(text, this.left, this.y, 10, true);
    this.y += 16;
  }

  /** A table whose header row is repeated on each page it runs onto; `total` is set in bold under a rule. */
  table(columns: readonly TableColumn[], rows: ReadonlyArray<readonly string[]>, total?: readonly string[]): void {
    const weights = columns.reduce((sum, column) => sum + column.weight, 0);
    const widths = columns.map((column) => (column.weight / weights) * this.width);
    const lineHeight = TABLE_FONT_SIZE + 2;
    const headerLines = columns.map((column, index) => this.wrap(column.header, widths[index]! - 2 * CELL_PADDING, TABLE_FONT_SIZE, true, MAX_CELL_LINES));
    const headerHeight = Math.max(1, ...headerLines.map((lines) => lines.length)) * lineHeight + 2 * CELL_PADDING;

    const drawHeader = () => {
      this.doc.save().rect(this.left, this.y, this.width, headerHeight).fill(HEADER_FILL).restore();
      let x = this.left;
      columns.forEach((column, index) => {
        headerLines[index]!.forEach((line, lineIndex) => this.cell(line, x, this.y + CELL_PADDING + lineIndex * lineHeight, widths[index]!, column.align, true));
        x += widths[index]!;
      });
      this.y += headerHeight;
    };
    const layoutRow = (cells: readonly string[], bold: boolean) => {
      const lines = columns.map((_, index) => this.wrap(cells[index] ?? '', widths[index]! - 2 * CELL_PADDING, TABLE_FONT_SIZE, bold, MAX_CELL_LINES));
      return { lines, height: ROW_HEIGHT + (Math.max(1, ...lines.map((cell) => cell.length)) - 1) * lineHeight };
    };
    const drawRow = (row: ReturnType<typeof layoutRow>, bold: boolean) => {
      let x = this.left;
      columns.forEach((column, index) => {
        row.lines[index]!.forEach((line, lineIndex) => this.cell(line, x, this.y + (ROW_HEIGHT - TABLE_FONT_SIZE) / 2 - 1 + lineIndex * lineHeight, widths[index]!, column.align, bold));
        x += widths[index]!;
      });
      this.y += row.height;
    };

    this.ensureRoom(headerHeight + ROW_HEIGHT);
    drawHeader();
    for (const cells of rows) {
      const row = layoutRow(cells, false);
      if (this.ensureRoom(row.height)) drawHeader();
      drawRow(row, false);
    }
    if (total) {
      const row = layoutRow(total, true);
      if (this.ensureRoom(row.height + 2)) drawHeader();
      this.rule();
      drawRow(row, true);
    }
    this.rule();
    this.y += 12;
  }

  private cell(text: string, x: number, y: number, width: number, align: 'left' | 'right', bold: boolean): void {
    const inner = width - 2 * CELL_PADDING;
    const offset = align === 'right' ? inner - this.textWidth(text, TABLE_FONT_SIZE, bold) : 0;
    this.put(text, x + CELL_PADDING + offset, y, TABLE_FONT_SIZE, bold);
  }

  private rule(): void {
    this.doc.save().moveTo(this.left, this.y).lineTo(this.left + this.width, this.y).lineWidth(0.6).stroke(RULE_COLOR).restore();
    this.y += 2;
  }

  /** Label and amount pairs right-aligned in a box, the last ones (what to pay and receive) in bold. */
  amounts(rows: ReadonlyArray<readonly [string, string]>, boldFrom: number): void {
    const size = 9;
    const boxWidth = Math.min(this.width, 300);
    const x = this.left + this.width - boxWidth;
    this.ensureRoom(rows.length * (size + 6));
    rows.forEach(([label, value], index) => {
      const bold = index >= boldFrom;
      this.put(label, x, this.y, size, bold);
      this.put(value, x + boxWidth - this.textWidth(value, size, bold), this.y, size, bold);
      this.y += size + 6;
    });
    this.y += 6;
  }

  /** Writes the footers and returns the whole file. pdfkit writes synchronously: the bytes are read as soon as it ends. */
  finish(): Buffer {
    const { start, count } = this.doc.bufferedPageRange();
    for (let index = start; index < start + count; index += 1) {
      this.doc.switchToPage(index);
      const y = this.doc.page.height - MARGIN - 10;
      this.doc.save().moveTo(MARGIN, y - 6).lineTo(this.doc.page.width - MARGIN, y - 6).lineWidth(0.4).stroke(RULE_COLOR).restore();
      this.put(this.clipToWidth(this.meta.footer, this.doc.page.width / 2, 7), MARGIN, y, 7);
      const label = this.meta.pageLabel(index - start + 1, count);
      this.put(label, this.doc.page.width - MARGIN - this.textWidth(label, 7), y, 7);
    }
    this.doc.end();
    const chunks: Buffer[] = [];
    for (let chunk: Buffer | null = this.doc.read(); chunk !== null; chunk = this.doc.read()) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
}
