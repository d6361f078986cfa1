/** The app items of bench:ingest (and of bench:query's busy run): short notes of 3 to 8 sentences. */
const topics = ["billing", "onboarding", "security review", "the mobile app", "quarterly planning", "hiring", "the data pipeline", "customer churn"];
const people = ["Ada", "Grace", "Linus", "Margaret", "Barbara", "Ken"];

export const benchTopics: readonly string[] = topics;
export const benchPeople: readonly string[] = people;

function paragraph(i: number, n: number): string {
  return Array.from({ length: n }, (_, j) => {
    const t = topics[(i + j) % topics.length]!;
    const p = people[(i * 3 + j) % people.length]!;
    return `${p} wrote an update about ${t}: the team finished step ${j + 1} of ticket ${i}-${j}, found two open questions and plans a review next week.`;
  }).join(" ");
}

export interface BenchItem {
  readonly id: string;
  readonly type: string;
  readonly title: string;
  readonly content: { readonly text: string };
}

/** `count` notes with ids `${prefix}${from}` onwards. */
export function benchItems(count: number, prefix = "bench-", from = 0): BenchItem[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return { id: `${prefix}${i}`, type: "note", title: `Note ${i}`, content: { text: paragraph(i, 3 + (i % 6)) } };
  });
}
