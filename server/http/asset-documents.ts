import type { AssetSpecification } from '../../protocol/index.ts';
import { formatDecimal } from '../../protocol/index.ts';

/**
 * The documents of an asset's specification as one-page PDFs made from the specification itself, so
 * every document link resolves on a fresh install. A real exchange would upload the signed originals.
 */
export function assetDocumentPdf(asset: AssetSpecification, title: string): Buffer {
  const lines = [
    title,
    '',
    `${asset.name} (${asset.code})`,
    `Market: ${asset.marketId}    Type: ${asset.type}    Unit: ${asset.unit}    Currency: ${asset.currency}`,
    `Price step: ${formatDecimal(asset.priceStep, asset.priceDecimals)}    Quantity step: ${formatDecimal(asset.quantityStep, asset.quantityDecimals)}`,
    `Minimum quantity: ${formatDecimal(asset.minQuantity, asset.quantityDecimals)}    Maximum quantity: ${formatDecimal(asset.maxQuantity, asset.quantityDecimals)}`,
    `Price limits: ${formatDecimal(asset.minPrice, asset.priceDecimals)} to ${formatDecimal(asset.maxPrice, asset.priceDecimals)}`,
    `Delivery period: ${asset.deliveryStart} to ${asset.deliveryEnd}`,
    `Trading period: ${asset.tradingStart} to ${asset.tradingEnd}`,
  ];
  return simplePdf(lines);
}

/** A minimal valid PDF 1.4: one A4 page of Helvetica text lines (ASCII; other characters become '?'). */
export function simplePdf(lines: string[]): Buffer {
  const escape = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const content = ['BT', '/F1 11 Tf', '14 TL', '56 790 Td', ...lines.map((line, index) => `${index === 0 ? '/F1 16 Tf ' : index === 1 ? '/F1 11 Tf ' : ''}(${escape(line)}) Tj T*`), 'ET'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
