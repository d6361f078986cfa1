import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestApp } from "./harness.js";

/**
 * A pass-through proxy on 127.0.0.1 in front of a test app, for clients the harness does not
 * drive (the vendor SDK): every response is checked against the app's OpenAPI document, and
 * `problems` lists what did not honour it (the test asserts it is empty).
 */
export async function startContractProxy(t: TestApp): Promise<{ url: string; problems: string[]; close(): Promise<void> }> {
  const problems: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "connection") headers.set(k, v);
      const method = req.method ?? "GET";
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(new URL(req.url ?? "/", t.baseUrl), { method, headers, body })
        .then(async (upstream) => {
          const text = await upstream.text();
          try {
            t.checkContract(method, req.url ?? "/", { status: upstream.status, headers: upstream.headers, text });
          } catch (err) {
            problems.push((err as Error).message);
          }
          const out: Record<string, string> = {};
          upstream.headers.forEach((v, k) => {
            if (k !== "content-length" && k !== "transfer-encoding" && k !== "content-encoding" && k !== "connection") out[k] = v;
          });
          res.writeHead(upstream.status, out).end(text);
        })
        .catch((err: unknown) => {
          problems.push(`proxy: ${String(err)}`);
          res.writeHead(502).end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    problems,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
