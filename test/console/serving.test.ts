import assert from "node:assert/strict";
import { test } from "node:test";
import { ensureConsoleBuilt } from "../helpers/console-build.js";
import { startTestApp } from "../helpers/harness.js";

test("the console is served at /console/ without a key, with a self-only CSP, hidden from /openapi.json", async (t) => {
  await ensureConsoleBuilt();
  const app = await startTestApp();
  t.after(() => app.close());

  const bare = await fetch(`${app.baseUrl}/console`, { redirect: "manual" });
  assert.equal(bare.status, 301);
  assert.equal(bare.headers.get("location"), "/console/");

  const page = await fetch(`${app.baseUrl}/console/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /text\/html/);
  const csp = page.headers.get("content-security-policy") ?? "";
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /https?:|unsafe-inline|unsafe-eval/, "nothing but this service may be loaded");
  assert.equal(page.headers.get("x-content-type-options"), "nosniff");
  const html = await page.text();
  // Relative asset paths: the same build works under any prefix.
  const script = /<script type="module" crossorigin src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
  assert.ok(script, `index.html loads its bundle by a relative path: ${html}`);
  assert.doesNotMatch(html, /https?:\/\//, "no CDN or other origin in the page");

  const bundle = await fetch(`${app.baseUrl}/console/${script}`);
  assert.equal(bundle.status, 200);
  assert.match(bundle.headers.get("content-type") ?? "", /javascript/);
  assert.match(bundle.headers.get("cache-control") ?? "", /immutable/);

  const missing = await fetch(`${app.baseUrl}/console/assets/nothing-here.js`);
  assert.equal(missing.status, 404);

  const doc = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
  assert.deepEqual(
    Object.keys(doc.paths).filter((p) => p.startsWith("/console")),
    [],
  );
});

test("without a built console, /console/ answers 404 saying to run npm run build", async (t) => {
  const app = await startTestApp({ CONSOLE_DIR: "/nonexistent/console-build" });
  t.after(() => app.close());
  const res = await fetch(`${app.baseUrl}/console/`);
  assert.equal(res.status, 404);
  const body = (await res.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, "NOT_FOUND");
  assert.match(body.error.message, /npm run build/);
});
