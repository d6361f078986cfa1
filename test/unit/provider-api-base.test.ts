import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiBase } from "../../src/features/connectors/provider-transport.js";

test("a URL is inside a provider's API by parsed origin and path prefix, never by string prefix", () => {
  const github = new ApiBase("https://api.github.com");
  for (const inside of ["https://api.github.com/user/repos?page=2", "https://API.GitHub.com/user", "https://api.github.com:443/user", "https://api.github.com"])
    assert.notEqual(github.contains(inside), null, inside);
  for (const outside of [
    "https://api.github.com.evil.example/x",
    "https://api.github.com:8443/x",
    "http://api.github.com/user",
    "https://api.github.com@evil.example/user",
    "https://user:pw@api.github.com/user",
    "//api.github.com/user",
    "not a url",
  ])
    assert.equal(github.contains(outside), null, outside);

  const enterprise = new ApiBase("https://ghe.example/api/v3/");
  assert.equal(enterprise.toString(), "https://ghe.example/api/v3");
  assert.notEqual(enterprise.contains("https://ghe.example/api/v3/repos/a/b"), null);
  assert.notEqual(enterprise.contains("https://ghe.example/api/v3"), null);
  for (const outside of [
    "https://ghe.example/api/v3x/repos",
    "https://ghe.example/api/v3/../../admin",
    "https://ghe.example/api/v3/%2e%2e/%2e%2e/admin",
    "https://ghe.example/",
  ])
    assert.equal(enterprise.contains(outside), null, outside);
  assert.equal(enterprise.url("/repos/a/b", { page: 2, skip: undefined }).toString(), "https://ghe.example/api/v3/repos/a/b?page=2");
});
