// Builds real files of each supported type in memory, so parser tests need no checked-in binaries.
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from "docx";
import { PDFDocument, StandardFonts } from "pdf-lib";

/** A PDF with one page per entry; each page's lines are drawn top-down, blank strings leave a gap. */
export async function makePdf(pages: string[][], title?: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (title !== undefined) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    let y = 800;
    for (const line of lines) {
      if (line.length > 0) page.drawText(line, { x: 50, y, size: 12, font });
      y -= line.length > 0 ? 16 : 30;
    }
  }
  return pdf.save();
}

export async function makeDocx(): Promise<Uint8Array> {
  const cell = (text: string): TableCell => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: "Quarterly Report", heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun("Revenue grew strongly in the "), new TextRun({ text: "third quarter", bold: true }), new TextRun(".")] }),
          new Paragraph({ text: "Regional Results", heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: "Europe led the growth.", bullet: { level: 0 } }),
          new Paragraph({ text: "Asia was flat.", bullet: { level: 0 } }),
          new Table({
            rows: [
              new TableRow({ children: [cell("Region"), cell("Revenue")] }),
              new TableRow({ children: [cell("Europe"), cell("120")] }),
              new TableRow({ children: [cell("Asia"), cell("80")] }),
            ],
          }),
          new Paragraph({ text: "Outlook", heading: HeadingLevel.HEADING_1 }),
          new Paragraph("We expect steady demand next year."),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Deterministic pseudo-random bytes (xorshift), so failures reproduce. */
export function randomBytes(length: number, seed = 42): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
