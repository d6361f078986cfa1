import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { extractEntities, type Mention, type MentionKind } from "../../src/engines/extraction/index.js";

function only(mentions: readonly Mention[], kind: MentionKind): Mention[] {
  return mentions.filter((mention) => mention.kind === kind);
}

function check(text: string, mentions: readonly Mention[]): void {
  for (const mention of mentions) assert.equal(text.slice(mention.span.start, mention.span.end), mention.surface);
}

void describe("extractEntities", () => {
  void it("reads names only in sentences holding a proper noun, with offsets in the whole text", () => {
    const text = "Love how you got the horse's grace and strength. Wow, Melanie, that's amazing! Then Caroline met Jon in Paris.";
    const { mentions } = extractEntities(text);
    check(text, mentions);
    assert.deepEqual(
      only(mentions, "person").map((m) => m.surface),
      ["Melanie", "Caroline", "Jon"],
    );
    assert.deepEqual(
      only(mentions, "place").map((m) => m.surface),
      ["Paris"],
    );
  });

  void it("reads a transcript's speaker label apart from the names that follow it", () => {
    const cases: Array<[string, string[]]> = [
      ["[8 May 2023] Caroline: Thanks Mel! That's so sweet of you.", ["Caroline", "Mel"]],
      ["Jon: Thanks Gina for the help.", ["Jon", "Gina"]],
      ["Caroline: Woohoo Melanie - great!", ["Caroline", "Melanie"]],
      ["Meeting at 10:30 with Ada Lovelace: she said hi.", ["Ada Lovelace"]],
    ];
    for (const [text, people] of cases) {
      const { mentions } = extractEntities(text, { reference: "2023-05-08T00:00:00Z" });
      check(text, mentions);
      assert.deepEqual(
        only(mentions, "person").map((m) => m.surface),
        people,
        text,
      );
    }
  });

  void it("finds handles, emails, money, dates, times, URLs, hashtags and tickets in a Slack message", () => {
    const text =
      "Hey @Ada_L, can you email Bob.Smith@Example.com about the $1,200 invoice by Friday 3pm? " +
      "See https://github.com/acme/api/issues/42 #billing (tracked in ENG-123 and #42)";
    const { mentions } = extractEntities(text, { reference: "2024-03-04T10:00:00Z" });
    check(text, mentions);
    assert.deepEqual(
      only(mentions, "mention").map((m) => m.key),
      ["ada_l"],
    );
    assert.deepEqual(
      only(mentions, "email").map((m) => m.key),
      ["bob.smith@example.com"],
    );
    assert.deepEqual(
      only(mentions, "money").map((m) => m.key),
      ["$1200"],
    );
    assert.deepEqual(
      only(mentions, "date").map((m) => [m.surface, m.resolved]),
      [["Friday", "2024-03-08"]],
    );
    assert.deepEqual(
      only(mentions, "time").map((m) => m.key),
      ["15:00"],
    );
    assert.deepEqual(
      only(mentions, "url").map((m) => m.key),
      ["github.com/acme/api/issues/42"],
    );
    assert.deepEqual(
      only(mentions, "hashtag").map((m) => m.key),
      ["billing"],
    );
    assert.deepEqual(
      only(mentions, "ticket").map((m) => m.key),
      ["ENG-123", "#42"],
    );
  });

  void it("finds people, organisations and places with compromise and keeps spans exact", () => {
    const text = "Meeting on 8 May 2023 at 10:30 am with Ada Lovelace at Google in London.";
    const { mentions } = extractEntities(text);
    check(text, mentions);
    assert.deepEqual(
      only(mentions, "person").map((m) => m.key),
      ["ada lovelace"],
    );
    assert.deepEqual(
      only(mentions, "organization").map((m) => m.key),
      ["google"],
    );
    assert.deepEqual(
      only(mentions, "place").map((m) => m.surface),
      ["London"],
    );
    assert.deepEqual(
      only(mentions, "date").map((m) => m.resolved),
      ["2023-05-08"],
    );
    assert.deepEqual(
      only(mentions, "time").map((m) => m.key),
      ["10:30"],
    );
  });

  void it("normalises names: diacritics, possessives and titles", () => {
    const text = "José Núñez's PR was reviewed by Dr. Jane Doe.";
    const { mentions } = extractEntities(text);
    check(text, mentions);
    assert.deepEqual(
      only(mentions, "person").map((m) => [m.surface, m.key]),
      [
        ["José Núñez", "jose nunez"],
        ["Dr. Jane Doe", "jane doe"],
      ],
    );
  });

  void it("finds products by name and version, percentages and durations in a GitHub issue", () => {
    const text = "After upgrading to Node 20 on my iPhone 15 the build takes 2 hours and fails 20% of the time.";
    const { mentions } = extractEntities(text);
    assert.deepEqual(
      only(mentions, "product").map((m) => m.key),
      ["node 20", "iphone 15"],
    );
    assert.deepEqual(
      only(mentions, "duration").map((m) => m.surface),
      ["2 hours"],
    );
    assert.deepEqual(
      only(mentions, "percent").map((m) => m.surface),
      ["20%"],
    );
  });

  void it("resolves relative dates against a LoCoMo session date", () => {
    const text = "I went to a LGBTQ support group yesterday and it was so powerful.";
    const { mentions } = extractEntities(text, { reference: "1:56 pm on 8 May, 2023" });
    assert.deepEqual(
      only(mentions, "date").map((m) => [m.surface, m.resolved]),
      [["yesterday", "2023-05-07"]],
    );
  });

  void it("resolves weeks, months and ago-expressions to ISO 8601 at the precision written", () => {
    const text = "We shipped it 3 days ago, planned it last week and will review it next month.";
    const { mentions } = extractEntities(text, { reference: "2024-03-06" });
    assert.deepEqual(
      only(mentions, "date").map((m) => m.resolved),
      ["2024-03-03", "2024-W09", "2024-04"],
    );
  });

  void it("leaves relative dates unresolved without a reference and keeps absolute ones", () => {
    const { mentions } = extractEntities("Due tomorrow, launched on 2024-03-05.");
    assert.deepEqual(
      only(mentions, "date").map((m) => m.resolved ?? null),
      [null, "2024-03-05"],
    );
  });

  void it("always finds known speakers, even ones the tagger would miss", () => {
    const text = "Hey Mel! Good to see you! Caroline here.";
    const { mentions } = extractEntities(text, { knownPeople: ["Mel", "Caroline"] });
    assert.deepEqual(
      only(mentions, "person").map((m) => m.key),
      ["mel", "caroline"],
    );
  });

  void it("fast mode skips compromise but keeps the wink entities", () => {
    const text = "Ada Lovelace emailed ada@example.com on 2024-01-02.";
    const { mentions } = extractEntities(text, { mode: "fast" });
    assert.deepEqual(
      mentions.map((m) => m.kind),
      ["email", "date"],
    );
  });

  void it("returns sentence spans for relation extraction", () => {
    const text = "First sentence here. Second one follows!";
    const { sentences } = extractEntities(text);
    assert.deepEqual(
      sentences.map((s) => text.slice(s.start, s.end)),
      ["First sentence here.", "Second one follows!"],
    );
  });
  void it("query mode reads each run of proper nouns as a name and keeps the pattern kinds", () => {
    const text = "What did Ada Lovelace tell Grace at Acme about ENG-7? Ask @bob or bob@example.com";
    const { mentions } = extractEntities(text, { mode: "query" });
    check(text, mentions);
    assert.deepEqual(
      only(mentions, "person").map((m) => m.surface),
      ["Ada Lovelace", "Grace", "Acme"],
    );
    assert.deepEqual(
      mentions.filter((m) => m.kind !== "person").map((m) => `${m.kind}:${m.key}`),
      ["ticket:ENG-7", "mention:bob", "email:bob@example.com"],
    );
    assert.deepEqual(extractEntities("where does john smith work", { mode: "query" }).mentions, []);
  });
});
