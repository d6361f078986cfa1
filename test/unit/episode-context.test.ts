import assert from "node:assert/strict";
import { test } from "node:test";
import { episodeScores, mergedSpans, type TermCounts } from "../../src/features/search/episode-context.js";
import { InvertedIndex } from "../../src/engines/bm25/inverted-index.js";

const MINUTE = 60_000;
const stats = { docCount: 100, avgLength: 4, terms: ["lake", "kayak"], docFreqs: [5, 5] };
// query terms: [lake, kayak]; each member's frequency of them and its length
const counts = (entries: Array<[number, number, number, number]>): Map<number, TermCounts> =>
  new Map(entries.map(([key, lake, kayak, length]) => [key, { length, tfs: [lake, kayak] }]));

test("a turn is scored with half of each neighbour's terms, within its episode only", () => {
  const members = [
    { chunkKey: 1, collection: "c", timestamp: 0 },
    { chunkKey: 2, collection: "c", timestamp: MINUTE },
    // 31 minutes later: another episode, so 2 is not its neighbour
    { chunkKey: 3, collection: "c", timestamp: 32 * MINUTE },
  ];
  const scores = episodeScores(
    members,
    counts([
      [1, 1, 0, 4],
      [2, 0, 1, 4],
      [3, 0, 0, 4],
    ]),
    stats,
    { window: 0.5, episode: 0, gapMs: 30 * MINUTE },
  );
  const byKey = new Map(scores.map((s) => [s.chunkKey, s.score]));
  assert.equal(byKey.get(1), byKey.get(2), "1 and 2 each hold one term and half of the other");
  assert.ok(byKey.get(1)! > 0);
  assert.equal(byKey.has(3), false, "3 matches nothing and its only neighbour by time is in another episode");
});

test("the episode's score lifts every turn of it, by its weight against the best episode", () => {
  const members = [
    { chunkKey: 1, collection: "c", timestamp: 0 },
    { chunkKey: 2, collection: "c", timestamp: 1000 },
    { chunkKey: 3, collection: "c", timestamp: 2000 },
    { chunkKey: 4, collection: "c", timestamp: 3000 },
    // same time, another collection: another episode
    { chunkKey: 5, collection: "d", timestamp: 3000 },
  ];
  const tf = counts([
    [1, 1, 0, 4],
    [2, 0, 0, 4],
    [3, 0, 0, 4],
    [4, 0, 1, 8],
    [5, 0, 1, 8],
  ]);
  const without = new Map(episodeScores(members, tf, stats, { window: 0, episode: 0, gapMs: 30 * MINUTE }).map((s) => [s.chunkKey, s.score]));
  assert.equal(without.get(4), without.get(5), "alone, 4 and 5 score the same");
  const withEpisode = new Map(episodeScores(members, tf, stats, { window: 0, episode: 0.4, gapMs: 30 * MINUTE }).map((s) => [s.chunkKey, s.score]));
  assert.ok(withEpisode.get(4)! > withEpisode.get(5)!, "4's episode also holds the other term");
  assert.ok(Math.abs(withEpisode.get(2)! - 0.4) < 1e-9, "2 matches nothing itself: the best episode's weight");
  assert.deepEqual(
    episodeScores(members, tf, stats, { window: 0, episode: 0.4, gapMs: 30 * MINUTE }).map((s) => s.chunkKey),
    [1, 4, 5, 2, 3],
    "2 and 3 match nothing and come after every turn that does; tied, by chunk key",
  );
});

test("termCounts reads a chunk's length and its frequency of each term from the postings", () => {
  const index = new InvertedIndex();
  index.add(10, 5, [
    ["lake", 2],
    ["house", 3],
  ]);
  index.add(11, 1, [["kayak", 1]]);
  assert.deepEqual(index.termCounts(10, ["lake", "kayak", "house", "absent"]), { length: 5, tfs: [2, 0, 3, 0] });
  assert.deepEqual(index.termCounts(11, ["lake", "kayak"]), { length: 1, tfs: [0, 1] });
  index.remove(10);
  assert.equal(index.termCounts(10, ["lake"]), undefined);
  assert.equal(index.termCounts(99, ["lake"]), undefined);
});

test("seed spans merge when they overlap within one collection, never across collections", () => {
  const seed = (collection: string, ts: number) => ({ database_id: "d", corpus: "memory", collection, ts });
  const spans = mergedSpans([seed("a", 5_000), seed("b", 1_500), seed("a", 1_000), seed("a", 2_900), seed("a", 9_000)], 1_000);
  assert.deepEqual(
    spans.map((s) => [s.collection, s.lo, s.hi]),
    [
      ["a", 0, 3_900],
      ["a", 4_000, 6_000],
      ["a", 8_000, 10_000],
      ["b", 500, 2_500],
    ],
  );
  assert.deepEqual(mergedSpans([seed("a", 1_000), seed("a", 3_000)], 1_000).length, 1, "touching spans are one");
  assert.deepEqual(mergedSpans([], 1_000), []);
});
