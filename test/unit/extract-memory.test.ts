import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { inferMemory } from "../../src/engines/extraction/index.js";

void describe("inferMemory", () => {
  const cases: readonly [string, string, string][] = [
    ["I really love hiking on weekends", "Sam likes hiking on weekends", "preference"],
    ["Honestly, I can't stand loud restaurants.", "Sam dislikes loud restaurants", "preference"],
    ["I don't like cilantro", "Sam dislikes cilantro", "preference"],
    ["I prefer tea over coffee.", "Sam prefers tea over coffee", "preference"],
    ["My favourite food is sushi!", "Sam's favourite food is sushi", "preference"],
    ["I'm a big fan of jazz", "Sam likes jazz", "preference"],
    ["I'm planning to visit my parents in Lisbon next month.", "Sam plans to visit their parents in Lisbon next month", "plan"],
    ["I want to learn the guitar this year", "Sam wants to learn the guitar this year", "plan"],
    ["I'm a software engineer", "Sam is a software engineer", "trait"],
    ["I work as a nurse at the city hospital", "Sam works as a nurse at the city hospital", "trait"],
    ["I live in Zürich", "Sam lives in Zürich", "trait"],
    ["I'm vegetarian", "Sam is vegetarian", "trait"],
    ["My dog is called Rex.", "Sam's dog is named Rex", "fact"],
    ["I have two kids", "Sam has two kids", "fact"],
    ["I went to a LGBTQ support group yesterday and it was so powerful.", "Sam went to a LGBTQ support group yesterday", "fact"],
    ["I paint landscapes with my daughter.", "Sam paints landscapes with their daughter", "fact"],
  ];
  for (const [input, expected, kind] of cases) {
    void it(`infers "${expected}"`, () => {
      const memory = inferMemory(input, { userName: "Sam" });
      assert.equal(memory?.statement, expected);
      assert.equal(memory?.statements[0]?.kind, kind);
    });
  }

  void it("splits two first-person clauses into two memories", () => {
    const memory = inferMemory("I'm a software engineer at Google and I live in Zürich.", { userName: "Sam" });
    assert.deepEqual(
      memory?.statements.map((s) => s.statement),
      ["Sam is a software engineer at Google", "Sam lives in Zürich"],
    );
    assert.equal(memory?.statement, "Sam is a software engineer at Google. Sam lives in Zürich");
  });

  void it("reads only the user side of user/assistant pairs and defaults the subject", () => {
    const memory = inferMemory([
      { user: "Hi there! I love Italian food.", assistant: "I love it too! I'm an AI though." },
      { user: "What should I cook tonight?", assistant: "Try risotto." },
    ]);
    assert.equal(memory?.statement, "The user likes Italian food");
    assert.equal(memory?.statements.length, 1);
  });

  void it("uses the possessive form for names ending in s", () => {
    assert.equal(inferMemory("My name is James Brown", { userName: "James" })?.statement, "James' name is James Brown");
  });

  void it("returns null for small talk, questions and statements about others (LoCoMo turns)", () => {
    for (const turn of [
      "Hey Mel! Good to see you! How have you been?",
      "Wow, that's cool, Caroline! What happened that was so awesome?",
      "That sounds great, thanks!",
      "Do you like hiking?",
      "",
    ]) {
      assert.equal(inferMemory(turn, { userName: "Caroline" }), null, turn);
    }
  });
});
