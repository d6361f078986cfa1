import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  normalizeClockTime,
  normalizeHandle,
  normalizeName,
  normalizeUrl,
  parseReferenceTime,
  resolveDateExpression,
} from "../../src/engines/extraction/index.js";
import { analyzeWithCompromise, resolveWithCompromise } from "../../src/engines/extraction/compromise-pass.js";

void describe("date resolution and normalisation", () => {
  const reference = new Date("2023-05-08T13:56:00Z"); // a Monday
  const cases: readonly [string, string | undefined][] = [
    ["yesterday", "2023-05-07"],
    ["tomorrow", "2023-05-09"],
    ["last Friday", "2023-05-05"],
    ["on Friday", "2023-05-12"],
    ["next Tuesday", "2023-05-16"],
    ["two weeks ago", "2023-04-24"],
    ["in 3 days", "2023-05-11"],
    ["last weekend", "2023-05-06"],
    ["this week", "2023-W19"],
    ["last year", "2022"],
    ["March", "2023-03"],
    ["May 8, 2023", "2023-05-08"],
    ["8th of May", "2023-05-08"],
    ["05/03/2024", "2024-05-03"],
    ["25/12/2024", "2024-12-25"],
    ["31 April 2024", undefined],
    ["the other day", undefined],
  ];
  for (const [expression, expected] of cases) {
    void it(`resolves "${expression}"`, () => assert.equal(resolveDateExpression(expression, { reference }), expected));
  }

  void it("reads day-first numeric dates when asked", () => {
    assert.equal(resolveDateExpression("05/03/2024", { dayFirst: true }), "2024-03-05");
  });

  void it("parses LoCoMo session headers and ISO timestamps as reference times", () => {
    assert.equal(parseReferenceTime("1:56 pm on 8 May, 2023")?.toISOString(), "2023-05-08T13:56:00.000Z");
    assert.equal(parseReferenceTime("10:04 am on 19 January, 2024")?.toISOString(), "2024-01-19T10:04:00.000Z");
    assert.equal(parseReferenceTime("2024-03-05T10:00:00Z")?.toISOString(), "2024-03-05T10:00:00.000Z");
    assert.equal(parseReferenceTime("sometime"), undefined);
  });

  void it("normalises clock times, names, handles and URLs", () => {
    assert.equal(normalizeClockTime("3pm"), "15:00");
    assert.equal(normalizeClockTime("12:30 a.m."), "00:30");
    assert.equal(normalizeName("  Dr.  José   NÚÑEZ’s "), "jose nunez");
    assert.equal(normalizeName("James'"), "james");
    assert.equal(normalizeHandle("@@Ada"), "ada");
    assert.equal(normalizeUrl("HTTPS://www.GitHub.com/Acme/Repo/"), "github.com/Acme/Repo");
  });

  it("compromise's date fallback reads phrasings the resolver does not, on its own instance of compromise", () => {
    const reference = new Date("2024-01-10T00:00:00Z");
    assert.equal(resolveWithCompromise("the second tuesday of march", reference), "2024-03-12");
    assert.equal(resolveWithCompromise("christmas eve", reference), "2024-12-24");
    // the entity pass, on the instance without the dates plugin, still finds names around dates
    assert.deepEqual(
      analyzeWithCompromise("Caroline met John Smith at Google in Paris last Tuesday.").map((e) => e.kind),
      ["person", "person", "organization", "place"],
    );
  });
});
