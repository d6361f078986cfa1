import assert from "node:assert/strict";
import { test } from "node:test";
import { worthCompacting } from "../../src/platform/store/compact.js";

const MB = 1_048_576;

test("the start-up hint to compact: at least 256 MB of free pages and a quarter of the file; never on PostgreSQL", () => {
  assert.equal(worthCompacting({ backend: "sqlite", bytes: 1_400 * MB, freeBytes: 1_024 * MB }), true, "migration 0022 at 110,000 chunks");
  assert.equal(worthCompacting({ backend: "sqlite", bytes: 1_024 * MB, freeBytes: 256 * MB }), true, "both limits exactly");
  assert.equal(worthCompacting({ backend: "sqlite", bytes: 2_048 * MB, freeBytes: 300 * MB }), false, "under a quarter of a large file");
  assert.equal(worthCompacting({ backend: "sqlite", bytes: 200 * MB, freeBytes: 150 * MB }), false, "a small store");
  assert.equal(worthCompacting({ backend: "postgres", bytes: 4_096 * MB, freeBytes: null }), false);
});
