import assert from "node:assert/strict";
import { test } from "node:test";
import BetterSqlite3 from "better-sqlite3";
import { cachingStatements } from "../../src/platform/store/statement-cache.js";

test("a SQL text is prepared once and reused; the least recently used beyond the capacity is prepared again", () => {
  const file = new BetterSqlite3(":memory:");
  let prepared = 0;
  const counting = {
    close: () => file.close(),
    prepare: (text: string) => {
      prepared += 1;
      return file.prepare(text);
    },
  };
  const db = cachingStatements(counting, 2);
  db.prepare("CREATE TABLE t (v INTEGER)").run([]);
  const insert = "INSERT INTO t (v) VALUES (?)";
  for (let i = 0; i < 5; i++) db.prepare(insert).run([i]);
  assert.equal(prepared, 2, "the insert was prepared once for five runs");
  assert.deepEqual(db.prepare("SELECT sum(v) AS s FROM t").all([]), [{ s: 10 }]);
  db.prepare("SELECT count(*) AS n FROM t").all([]);
  assert.equal(prepared, 4);
  // Capacity 2: the two SELECTs are cached, the insert was evicted and is prepared again.
  db.prepare(insert).run([5]);
  assert.equal(prepared, 5);
  // A cached statement sees a schema change (SQLite recompiles it).
  db.prepare("ALTER TABLE t ADD COLUMN w TEXT").run([]);
  db.prepare(insert).run([6]);
  assert.deepEqual(db.prepare("SELECT count(*) AS n FROM t").all([]), [{ n: 7 }]);
  db.close();
});

test("rows come back as objects keyed by their columns, whatever the names; a statement that gains a column (schema change) gets it", () => {
  const db = cachingStatements(new BetterSqlite3(":memory:"));
  db.prepare("CREATE TABLE t (v INTEGER, s TEXT)").run([]);
  db.prepare("INSERT INTO t (v, s) VALUES (?, ?), (?, ?)").run([1, "a", 2, null]);
  const star = "SELECT * FROM t ORDER BY v";
  assert.deepEqual(db.prepare(star).all([]), [
    { v: 1, s: "a" },
    { v: 2, s: null },
  ]);
  // Names no identifier could be: quotes, spaces, an expression's text, a backslash.
  assert.deepEqual(db.prepare(`SELECT v AS "a ""b""", count(*), s AS "x\\y" FROM t WHERE v = ?`).all([1]), [{ 'a "b"': 1, "count(*)": 1, "x\\y": "a" }]);
  // A repeated name keeps its last value, as better-sqlite3's own objects do.
  assert.deepEqual(db.prepare("SELECT v AS n, s AS n FROM t WHERE v = ?").all([1]), [{ n: "a" }]);
  // Rows are objects through iterate too; a write is run, not read.
  assert.deepEqual(
    [...db.prepare(star).iterate([])],
    [
      { v: 1, s: "a" },
      { v: 2, s: null },
    ],
  );
  db.prepare("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'z'").run([]);
  assert.deepEqual(db.prepare(star).all([]), [
    { v: 1, s: "a", w: "z" },
    { v: 2, s: null, w: "z" },
  ]);
  // INSERT ... RETURNING returns data: its rows are objects as well.
  assert.deepEqual(db.prepare("INSERT INTO t (v, s) VALUES (?, ?) RETURNING v, w").all([3, "c"]), [{ v: 3, w: "z" }]);
  db.close();
});
