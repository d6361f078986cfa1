import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";

// A knowledge item the question names by its title ranks above items that only repeat the name in
// their text (src/features/search/title-match.ts), in both modes of hybrid search.
describe("POST /query: an item the question names by its title comes first", () => {
  let t: TestApp;
  const items = [
    {
      id: "king",
      title: "Mark King (musician)",
      content: { text: "Mark King is an English musician, bassist and singer of the band Level 42, born in 1958 on the Isle of Wight." },
    },
    {
      id: "fans",
      title: "Letters from fans",
      content: {
        text: "Fans asked whether Mark King is American. Mark King fans, Mark King records and Mark King tours: the singer Mark King answered the fan mail himself.",
      },
    },
    { id: "hexum", title: "Nick Hexum", content: { text: "Nick Hexum is an American singer, the lead vocalist of the band 311." } },
    { id: "handbook", title: "office-handbook.md", content: { text: "Opening hours: the office opens at 8 am on weekdays and the reception closes at 6 pm." } },
    { id: "opening", title: "Notes", content: { text: "The office opens late on public holidays; the office handbook says the office opens at 10 am then." } },
  ];

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "titles");
    const res = await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "titles", app_knowledge: items } });
    assert.equal(res.status, 202, res.text);
    const rows = await waitTerminal(
      t,
      "titles",
      items.map((i) => i.id),
    );
    assert.ok(
      rows.every((r) => r.indexing_status === "completed"),
      JSON.stringify(rows),
    );
  });
  after(async () => t.close());

  for (const mode of ["fast", "thinking"] as const) {
    test(`${mode}: the person named in the question, not the text that repeats the name`, async () => {
      const res = await t.request("POST", "/query", {
        body: { database: "titles", query: "Which singer is American, Mark King or Nick Hexum?", mode, graph_context: false },
      });
      assert.equal(res.status, 200, res.text);
      const ids = field<Array<{ id: string }>>(res.body, "data.chunks").map((c) => c.id);
      assert.deepEqual(ids.filter((id) => id === "king" || id === "fans").slice(0, 1), ["king"], `ranked: ${ids.join(", ")}`);
    });

    test(`${mode}: a file's name without its extension is its title`, async () => {
      const res = await t.request("POST", "/query", {
        body: { database: "titles", query: "what does the office handbook say: when the office opens", mode, graph_context: false },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(field<Array<{ id: string }>>(res.body, "data.chunks")[0]?.id, "handbook");
    });
  }
});
