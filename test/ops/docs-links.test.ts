import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, test } from "node:test";

/** The Markdown pages a reader meets: the README, the changelog and everything under docs/. */
function pages(): string[] {
  const out = ["README.md", "CHANGELOG.md"];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".md")) out.push(full);
    }
  };
  walk("docs");
  return out;
}

/** Text outside fenced code blocks, where a `](...)` is a link and a `#` line a heading. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

function anchorsIn(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(readFileSync(file, "utf8")).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe("documentation", () => {
  test("every relative link and anchor in the README, the changelog and docs/ resolves", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of pages()) {
      for (const m of prose(readFileSync(file, "utf8")).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1] ?? "";
        if (/^[a-z]+:/i.test(target)) continue;
        const [path = "", anchor] = target.split("#");
        const resolved = path === "" ? file : normalize(join(dirname(file), path));
        checked += 1;
        if (!existsSync(resolved)) broken.push(`${file}: ${target} (no ${resolved})`);
        else if (anchor !== undefined && resolved.endsWith(".md") && !anchorsIn(resolved).has(anchor))
          broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    assert.ok(checked > 50, `only ${checked} links found: the scan is not reading the pages`);
    assert.deepEqual(broken, []);
  });

  test("the README is a front door: at most 300 lines, the two commands at its top, no work log", () => {
    const readme = readFileSync("README.md", "utf8");
    const lines = readme.split("\n");
    assert.ok(lines.length <= 300, `README.md has ${lines.length} lines`);
    const top = lines.slice(0, 30).join("\n");
    assert.match(top, /^npm ci && npm start/m);
    assert.match(top, /^npm test/m);
    for (const file of pages()) {
      const text = readFileSync(file, "utf8");
      assert.doesNotMatch(text, /\bsessions? \d+/i, `${file} narrates sessions; history belongs in git and CHANGELOG.md`);
    }
  });
});
