// PDFs that are small to upload and costly to parse, built with pdf-lib, for the parser's bounds.
import { deflateSync } from "node:zlib";
import { PDFDocument, PDFName, StandardFonts } from "pdf-lib";

/**
 * One page whose content stream is `operator` repeated until it inflates to `megabytes` MB, stored
 * Flate-compressed (a few hundred KB): a decompression bomb in a valid PDF. A text-showing
 * operator makes the parser build text items (heap); a drawing operator only inflates the stream
 * (buffers outside the heap).
 */
export async function inflatingPdf(megabytes: number, operator: string): Promise<Uint8Array> {
  const line = Buffer.from(`${operator}\n`);
  const raw = Buffer.alloc(Math.ceil((megabytes * 1024 * 1024) / line.length) * line.length);
  for (let at = 0; at < raw.length; at += line.length) line.copy(raw, at);
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.setFont(font);
  const stream = pdf.context.stream(deflateSync(raw, { level: 9 }), { Filter: "FlateDecode" });
  page.node.set(PDFName.of("Contents"), pdf.context.register(stream));
  return pdf.save();
}

/** A PDF of `pages` empty pages: each is cheap, together they are not (10,000 took 32 s to parse). */
export async function manyPagesPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) pdf.addPage([612, 792]);
  return pdf.save({ useObjectStreams: false });
}
