/**
 * A minimal PDF 1.4 of text lines (no dependency): pages of Helvetica at 10 pt, 60 lines a page, with a correct
 * cross-reference table so any reader opens it. Text outside printable ASCII is written as '?': the standard fonts'
 * encoding cannot be relied on beyond it without embedding a font. For documents a platform without PDFs of its own
 * renders (SANDBOX's invoices).
 */
const LINES_PER_PAGE = 60;
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;

/** A PDF string literal: printable ASCII, with its delimiters and backslash escaped. */
function pdfText(line: string): string {
  const printable = line.replace(/[^\x20-\x7e]/g, '?');
  return `(${printable.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function pageContent(lines: readonly string[]): string {
  const body = lines.map((line, index) => `${index === 0 ? '' : '0 -12 Td '}${pdfText(line)} Tj`).join('\n');
  return `BT\n/F1 10 Tf\n50 ${PAGE_HEIGHT - 50} Td\n${body}\nET\n`;
}

/** The PDF of `lines`, in order, `title` in its document information. */
export function textPdf(title: string, lines: readonly string[]): Buffer {
  const pages: string[][] = [];
  for (let i = 0; i < Math.max(lines.length, 1); i += LINES_PER_PAGE) pages.push(lines.slice(i, i + LINES_PER_PAGE));
  // Objects: 1 catalog, 2 page tree, 3 font, 4 info, then a page and its content stream per page.
  const pageIds = pages.map((_, index) => 5 + index * 2);
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Title ${pdfText(title)} /Producer (Ledgerport) >>`,
  ];
  for (const [index, page] of pages.entries()) {
    const content = pageContent(page);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${(pageIds[index] ?? 0) + 1} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`);
  }
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (const [index, object] of objects.entries()) {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
