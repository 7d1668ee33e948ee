import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface ParsedPdf {
  /** Each page's text items in drawing order (a table cell, a label, a line of the heading). */
  pages: string[][];
  /** Each page's width and height in points. */
  sizes: Array<[number, number]>;
  /** The document's info dictionary (Title, Author, CreationDate as a PDF date string). */
  info: Record<string, unknown>;
}

/**
 * Parses a PDF with Mozilla's pdf.js, as a reader would: the text comes back through the embedded
 * font's ToUnicode map, so a diacritic extracted here is one the document really encodes.
 */
export async function parsePdf(pdf: Buffer): Promise<ParsedPdf> {
  const document = await getDocument({ data: new Uint8Array(pdf), verbosity: 0, isEvalSupported: false, useSystemFonts: false }).promise;
  try {
    const pages: string[][] = [];
    const sizes: Array<[number, number]> = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const [, , width = 0, height = 0] = page.view;
      sizes.push([Math.round(width), Math.round(height)]);
      const content = await page.getTextContent();
      pages.push(content.items.flatMap((item) => ('str' in item && item.str.trim() !== '' ? [item.str] : [])));
    }
    const { info } = await document.getMetadata();
    return { pages, sizes, info: info as Record<string, unknown> };
  } finally {
    await document.destroy();
  }
}
