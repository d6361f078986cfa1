import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { aclAllows, expandPrincipals } from "../../src/features/items/acl.js";

describe("acl", () => {
  test("e-mail principals imply their domain; all lowercased and deduplicated", () => {
    assert.deepEqual(expandPrincipals(["Ada@Example.com", "ada@example.com", " group:okta:eng "]), ["ada@example.com", "domain:example.com", "group:okta:eng"]);
    assert.deepEqual(expandPrincipals(["domain:example.com", ""]), ["domain:example.com"]);
  });

  test("null acl is unrestricted; otherwise one shared principal is enough", () => {
    assert.equal(aclAllows(null, []), true);
    assert.equal(aclAllows([], ["ada@example.com"]), false);
    assert.equal(aclAllows(["domain:example.com"], ["ada@example.com"]), true);
    assert.equal(aclAllows(["ada@example.com"], ["bob@example.com"]), false);
    assert.equal(aclAllows(["group:okta:eng"], ["ada@example.com", "group:okta:eng"]), true);
  });
});
