import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { blobFilePath } from "../../src/features/items/blob-store.js";
import { indexFileStem } from "../../src/features/search/index-file-stem.js";
import { pathOfIds } from "../../src/platform/util/id-paths.js";
import { isGeneratedId, newId } from "../../src/platform/util/ids.js";

const DB = newId();
const HOSTILE = ["../../../../tmp/x/PWNED.txt", "..", "/etc/passwd", "a/b", "", "ITEM-1", "01A24340-8C98-7164-8B8F-ADA451E66432", `${DB}/..`];

void describe("paths made of ids", () => {
  void it("take only the ids the service generates (UUIDv7, and the UUIDv4 of older stores)", () => {
    assert.ok(isGeneratedId(newId()));
    assert.ok(isGeneratedId("5505ba60-0998-440a-ab63-ad42d0c70839"));
    for (const id of HOSTILE) assert.equal(isGeneratedId(id), false, id);
  });

  void it("a file's bytes stay under DATA_DIR/blobs/<database>/", () => {
    const blob = newId();
    assert.equal(blobFilePath("/data", DB, blob), join("/data", "blobs", DB, blob));
    for (const id of HOSTILE) {
      assert.throws(() => blobFilePath("/data", DB, id), /not an id of this service/, id);
      assert.throws(() => blobFilePath("/data", id, blob), /not an id of this service/, id);
    }
  });

  void it("a database's index files stay under the index folder", () => {
    assert.equal(indexFileStem({ orgId: "o", databaseId: DB, corpus: "knowledge", collection: "../x" }).split("/")[0], DB);
    for (const id of HOSTILE) assert.throws(() => indexFileStem({ orgId: "o", databaseId: id, corpus: "knowledge", collection: "c" }), /not a database id/);
    assert.throws(() => pathOfIds("/data/indexes", "..", DB), /not an id of this service/);
  });
});
