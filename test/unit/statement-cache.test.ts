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
