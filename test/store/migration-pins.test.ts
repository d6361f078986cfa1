import assert from "node:assert/strict";
import { test } from "node:test";
import { migrationChecksum } from "../../src/platform/store/migrations/checksum.js";
import { MIGRATIONS } from "../../src/platform/store/migrations/index.js";
import { LANDED_CHECKSUMS } from "../../src/platform/store/migrations/landed-checksums.js";

const PINS = "src/platform/store/migrations/landed-checksums.ts";

test("every migration is pinned by the checksum of its statements, and no pinned migration changed", () => {
  const problems: string[] = [];
  for (const m of MIGRATIONS) {
    const actual = migrationChecksum(m);
    const pinned = LANDED_CHECKSUMS[m.version];
    if (pinned === undefined) {
      problems.push(`migration ${m.version} (${m.name}) has no pin: once it is final, add  ${m.version}: "${actual}",  to ${PINS}`);
    } else if (pinned !== actual) {
      problems.push(
        `migration ${m.version} (${m.name}) changed after it landed (pinned ${pinned}, now ${actual}): ` +
          `never edit a landed migration (databases already ran it); revert the edit and add a new migration instead`,
      );
    }
  }
  const known = new Set(MIGRATIONS.map((m) => m.version));
  for (const version of Object.keys(LANDED_CHECKSUMS).map(Number)) {
    if (!known.has(version)) problems.push(`${PINS} pins migration ${version}, which no longer exists: a landed migration is never removed`);
  }
  assert.deepEqual(problems, []);
});

test("the checksum follows the statements, not their formatting elsewhere", () => {
  const base = { version: 99, name: "x", sqlite: ["CREATE TABLE t (a INTEGER)"], postgres: ["CREATE TABLE t (a INTEGER)"] };
  assert.equal(migrationChecksum(base), migrationChecksum({ ...base, name: "renamed" }));
  assert.notEqual(migrationChecksum(base), migrationChecksum({ ...base, postgres: ["CREATE TABLE t (a BIGINT)"] }));
  assert.notEqual(migrationChecksum(base), migrationChecksum({ ...base, sqlite: [...base.sqlite, "SELECT 1"] }));
});
