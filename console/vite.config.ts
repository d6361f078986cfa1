// Builds the web console into dist/console/ with a relative base, so the same files work under
// /console/ (or any prefix a proxy puts in front). Everything is bundled: no CDN, works offline.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root: here,
  base: "./",
  // JSX through Vite's own transform (oxc): Preact's automatic runtime, no Babel plugin.
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../dist/console/", import.meta.url)),
    emptyOutDir: true,
    // One small bundle per entry is the point; a warning past 1 MB means something heavy slipped in.
    chunkSizeWarningLimit: 1024,
    sourcemap: false,
  },
  logLevel: "warn",
});
