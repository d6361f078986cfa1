import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/platform/config.js";

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: "/tmp/cs-config-test", ...env });

describe("configuration: input and resource limits", () => {
  test("BOOTSTRAP_API_KEY: every key needs 32 characters, and the message says which one", () => {
    const long = "k".repeat(32);
    assert.deepEqual(load({ BOOTSTRAP_API_KEY: `${long}, ${long}x` }).bootstrapApiKeys, [long, `${long}x`]);
    assert.throws(
      () => load({ BOOTSTRAP_API_KEY: `${long},short-key` }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /key 2 of 2 has 9 characters; each key needs at least 32/);
        return true;
      },
    );
    assert.deepEqual(load({}).bootstrapApiKeys, []);
  });

  test("HTTP timeouts: defaults, 0 turns the body and request deadlines off, the request's deadline holds the headers'", () => {
    assert.deepEqual(load({}).httpTimeouts, { headersMs: 15_000, bodyIdleMs: 30_000, requestMs: 3_600_000 });
    assert.deepEqual(load({ HTTP_BODY_IDLE_TIMEOUT_MS: "0", HTTP_REQUEST_TIMEOUT_MS: "0" }).httpTimeouts, { headersMs: 15_000, bodyIdleMs: 0, requestMs: 0 });
    assert.throws(() => load({ HTTP_HEADERS_TIMEOUT_MS: "5000", HTTP_REQUEST_TIMEOUT_MS: "1000" }), /HTTP_REQUEST_TIMEOUT_MS \(1000\) must be 0 or at least/);
    assert.throws(() => load({ HTTP_HEADERS_TIMEOUT_MS: "0" }), /HTTP_HEADERS_TIMEOUT_MS must be an integer between 100/);
  });

  test("MCP_ALLOWED_HOSTS takes host[:port] values, MCP_ALLOWED_ORIGINS origins; anything more is refused", () => {
    assert.deepEqual(load({}).mcpAllowedHosts, []);
    const c = load({
      MCP_ALLOWED_HOSTS: "Ctx.Example.com, [::1]:9000,ctx.example.com:80",
      MCP_ALLOWED_ORIGINS: "https://Console.example.org/ ,http://a.b:8080",
    });
    assert.deepEqual(c.mcpAllowedHosts, ["ctx.example.com", "[::1]:9000", "ctx.example.com"]);
    assert.deepEqual(c.mcpAllowedOrigins, ["https://console.example.org", "http://a.b:8080"]);
    for (const bad of ["https://ctx.example.com", "ctx.example.com/mcp", "u@ctx.example.com", "ctx.example.com?x", "a b"]) {
      assert.throws(() => load({ MCP_ALLOWED_HOSTS: bad }), /MCP_ALLOWED_HOSTS: .* is not a host or host:port/, bad);
    }
    for (const bad of ["ctx.example.com", "ftp://ctx.example.com", "https://ctx.example.com/mcp", "https://ctx.example.com/?a=1"]) {
      assert.throws(() => load({ MCP_ALLOWED_ORIGINS: bad }), /MCP_ALLOWED_ORIGINS: .* is not an http\(s\) origin/, bad);
    }
  });

  test("AUTH_FAILURES_PER_MINUTE defaults to 60; TRUSTED_PROXIES takes addresses, CIDR ranges and proxy-addr's names", () => {
    assert.equal(load({}).authFailuresPerMinute, 60);
    assert.equal(load({ AUTH_FAILURES_PER_MINUTE: "0" }).authFailuresPerMinute, 0);
    assert.deepEqual(load({}).trustedProxies, []);
    assert.deepEqual(load({ TRUSTED_PROXIES: "10.0.0.1, 10.0.0.0/8,fd00::/8, Loopback" }).trustedProxies, ["10.0.0.1", "10.0.0.0/8", "fd00::/8", "loopback"]);
    for (const bad of ["10.0.0.0/33", "proxy.example.com", "10.0.0.0/8/1", "::/129"]) {
      assert.throws(() => load({ TRUSTED_PROXIES: bad }), /TRUSTED_PROXIES: .* is not an address/, bad);
    }
  });

  test("PUBLIC_URL must be an http(s) URL without credentials, query or fragment; trailing slashes are dropped", () => {
    assert.equal(load({}).publicUrl, null);
    assert.equal(load({ PUBLIC_URL: "https://ctx.example.com/" }).publicUrl, "https://ctx.example.com");
    assert.equal(load({ PUBLIC_URL: "http://10.0.0.5:8080/api//" }).publicUrl, "http://10.0.0.5:8080/api");
    for (const bad of ["ctx.example.com", "ftp://ctx.example.com", "https://u:p@ctx.example.com", "https://ctx.example.com/?a=1", "https://x/#f"]) {
      assert.throws(() => load({ PUBLIC_URL: bad }), ConfigError, bad);
    }
  });

  test("query models: RERANK_BASE_URL needs RERANK_MODEL; LLM_QUERY_STEPS takes none or expand and rerank", () => {
    assert.equal(load({}).queryModels.rerank, null);
    assert.deepEqual([...load({}).queryModels.chatSteps].sort(), ["expand", "rerank"]);
    assert.throws(() => load({ RERANK_BASE_URL: "http://127.0.0.1:7997" }), /RERANK_MODEL is required with RERANK_BASE_URL/);
    assert.deepEqual(load({ RERANK_BASE_URL: "http://127.0.0.1:7997", RERANK_MODEL: "bge-reranker" }).queryModels.rerank, {
      provider: "openai",
      baseUrl: "http://127.0.0.1:7997",
      apiKey: null,
      model: "bge-reranker",
    });
    assert.deepEqual(load({ RERANK_PROVIDER: "transformers", RERANK_MODEL: "ms-marco-MiniLM-L-6-v2", RERANK_MODEL_PATH: "/models" }).queryModels.rerank, {
      provider: "transformers",
      model: "ms-marco-MiniLM-L-6-v2",
      localModelPath: "/models",
    });
    assert.throws(() => load({ RERANK_PROVIDER: "transformers" }), /RERANK_MODEL is required with RERANK_PROVIDER=transformers/);
    assert.throws(() => load({ RERANK_PROVIDER: "openai", RERANK_MODEL: "m" }), /RERANK_BASE_URL is required with RERANK_PROVIDER=openai/);
    assert.throws(() => load({ RERANK_PROVIDER: "cohere" }), /RERANK_PROVIDER must be openai or transformers, got 'cohere'/);
    assert.deepEqual([...load({ LLM_QUERY_STEPS: " Rerank " }).queryModels.chatSteps], ["rerank"]);
    assert.equal(load({ LLM_QUERY_STEPS: "none" }).queryModels.chatSteps.size, 0);
    assert.equal(load({ LLM_QUERY_STEPS: " " }).queryModels.chatSteps.size, 2);
    for (const bad of ["expand,hyde", ","])
      assert.throws(() => load({ LLM_QUERY_STEPS: bad }), /LLM_QUERY_STEPS must be 'none' or a comma-separated list of expand, rerank/, bad);
  });

  test("EMBEDDING_PRECISION: int8 by default, float32 on request, anything else refused", () => {
    const precision = (env: Record<string, string>): string | undefined => {
      const e = load(env).embedding;
      return e.provider === "local" ? e.precision : undefined;
    };
    assert.equal(precision({}), "int8");
    assert.equal(precision({ EMBEDDING_PRECISION: " Float32 " }), "float32");
    assert.throws(() => load({ EMBEDDING_PRECISION: "fp16" }), /EMBEDDING_PRECISION must be int8 or float32, got 'fp16'/);
  });

  test("upload and archive limits have defaults and are validated", () => {
    const c = load({});
    assert.equal(c.maxRequestUploadBytes, 200 * 1024 * 1024);
    assert.equal(c.maxUploadFiles, 100);
    assert.equal(c.maxArchiveUncompressedBytes, 128 * 1024 * 1024);
    assert.equal(c.maxArchiveCompressionRatio, 100);
    assert.equal(load({ MAX_UPLOAD_FILES: "3" }).maxUploadFiles, 3);
    assert.throws(() => load({ MAX_UPLOAD_FILES: "0" }), ConfigError);
    assert.throws(() => load({ MAX_REQUEST_UPLOAD_BYTES: "lots" }), ConfigError);
    assert.throws(() => load({ MAX_ARCHIVE_COMPRESSION_RATIO: "1" }), ConfigError);
  });
});
