/**
 * Plain BM25 (k1 1.2, b 0.75, no stemming, no stop words), the reference a user compares a search
 * service with (rank_bm25's Okapi, Elasticsearch's defaults bar the analyser). Documents are whole
 * texts; ties keep the input order.
 */
const K1 = 1.2;
const B = 0.75;

const tokens = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export class PlainBm25 {
  private readonly docs: Array<{ id: string; tf: Map<string, number>; length: number }> = [];
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  constructor(documents: ReadonlyArray<{ id: string; text: string }>) {
    for (const d of documents) {
      const tf = new Map<string, number>();
      const words = tokens(d.text);
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      this.docs.push({ id: d.id, tf, length: words.length });
      this.totalLength += words.length;
    }
  }

  search(query: string, k: number): string[] {
    const n = this.docs.length;
    const avg = this.totalLength / Math.max(1, n);
    const terms = [...new Set(tokens(query))];
    const scored = this.docs.map((d, i) => {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (f === undefined) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg));
      }
      return { id: d.id, score, i };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, k)
      .map((s) => s.id);
  }
}
