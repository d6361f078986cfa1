import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { angleAddress } from "../../src/engines/documents/app-items/angle-address.js";
import { participantsFrom, participantsOfFields } from "../../src/engines/documents/app-items/participants.js";
import { findTickets } from "../../src/engines/extraction/pattern-pass.js";
import { mailHtmlText } from "../../src/features/connectors/gmail/html-text.js";

// Text that anyone can put into the store (an app item's sender, a mail sent to a connected mailbox)
// is read in linear time. Each hostile input below took seconds to minutes with the backtracking
// regular expressions these functions replaced (measured: 12 s to 91 s); each of these reads takes
// milliseconds now. The bound is far above that and far below the old times on a loaded machine.
const HOSTILE = 200_000;
const BOUND_MS = 2_000;

/** Runs `read` (synchronous: a node:test timeout cannot interrupt it) and asserts it was quick. */
function quickly<T>(what: string, read: () => T): T {
  const started = performance.now();
  const result = read();
  const ms = performance.now() - started;
  assert.ok(ms < BOUND_MS, `${what} took ${ms.toFixed(0)} ms`);
  return result;
}

describe("participants: 'Name <address>' in linear time, as the regular expression read it", () => {
  test("angleAddress agrees with ^(.*?)<([^>]+)>$ on random strings", () => {
    const old = (s: string): { name: string; address: string } | null => {
      const m = /^(.*?)<([^>]+)>$/.exec(s);
      return m === null ? null : { name: m[1] ?? "", address: m[2] ?? "" };
    };
    const alphabet = fc.constantFrom("a", "<", ">", " ", "\n", '"', "@", "\u2028");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 12 }), (chars) => {
        const s = chars.join("");
        assert.deepEqual(angleAddress(s), old(s), JSON.stringify(s));
      }),
      { numRuns: 5_000 },
    );
  });

  test("a 200 kB sender of '<a <a <a ...' is read at once", () => {
    const [p] = quickly("'<a <a ...'", () => participantsFrom("sender", "<a ".repeat(HOSTILE / 3)));
    assert.equal(p?.role, "sender");
    assert.deepEqual(participantsFrom("sender", "Ada Lovelace <Ada@Example.com>"), [
      { role: "sender", name: "Ada Lovelace", email: "ada@example.com", display: "Ada Lovelace" },
    ]);
  });

  test("Slack mentions in a 200 kB body of '<@A|<@A|...' are read at once", () => {
    for (const unit of ["<@A|", "<@", "<@A"]) quickly(unit, () => participantsOfFields("message", {}, unit.repeat(HOSTILE / unit.length)));
    const found = participantsOfFields("message", {}, "hi <@U123|ada> and <@U456>, cc @eve");
    assert.deepEqual(
      found.map((p) => p.id ?? p.handle),
      ["U123", "U456", "eve"],
    );
  });
});

describe("Gmail HTML as text in linear time", () => {
  test("scripts, styles and head go; block ends are line breaks; entities are decoded", () => {
    const html =
      "<html><HEAD><title>t</title></head><body><style>p{}</style><p>Thanks &amp; see you</p>" +
      "<SCRIPT type='x'>alert(1)</script ><div>line <b>two</b></div>a < b > c<br/>end<br>  \n\n\n\n<>x</body></html>";
    assert.equal(mailHtmlText(html), "Thanks & see you\nline two\na  c\nend\n\n<>x");
    assert.equal(mailHtmlText("<script>no end tag"), "no end tag", "without an end tag only the tag goes");
    assert.equal(mailHtmlText("1 < 2"), "1 < 2");
  });

  test("200 kB of '<', '<br', '<script', '<script></script>' or spaces is read at once", () => {
    for (const unit of ["<", "<br", "<script", "<script></script>", " ", "<a <b "]) {
      quickly(JSON.stringify(unit), () => mailHtmlText(unit.repeat(HOSTILE / unit.length)));
    }
    assert.equal(
      quickly("spaces", () => mailHtmlText(`${" ".repeat(HOSTILE)}\tx`)),
      "x",
    );
  });
});

describe("entity patterns in linear time", () => {
  test("tracker keys in 200 kB of 'v1.v1.v1...' are looked for at once", () => {
    assert.deepEqual(
      quickly("'v1.v1.'", () => findTickets("v1.".repeat(HOSTILE / 3))),
      [],
    );
    const text = "see ENG-12, acme/api#7 and #3.";
    assert.deepEqual(
      findTickets(text).map((t) => text.slice(t.span.start, t.span.end)),
      ["ENG-12", "acme/api#7", "#3"],
    );
  });
});
