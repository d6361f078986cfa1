import js from "@eslint/js";
import tseslint from "typescript-eslint";
import noSwallowedError from "./eslint-rules/no-swallowed-error.js";

// SQL lives in stores. Only store files (store.ts, *-store.ts) and src/platform/store build queries;
// services, routes and jobs call a store's methods.
const QUERY_BUILDER_CALLS = "CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|mergeInto|replaceInto|selectNoFrom)$/]";

export default tseslint.config(
  { ignores: ["dist/**", "data/**", ".test-build/**", "node_modules/**", "**/*.js", "**/*.mjs", "eslint-rules/*.d.ts", "src/client/api-types.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      // node:test's describe/it return promises the runner itself awaits.
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["describe", "it", "test", "suite", "before", "after", "beforeEach", "afterEach"] },
          ],
        },
      ],
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    files: ["src/**/*.ts"],
    ignores: ["src/**/store.ts", "src/**/*-store.ts", "src/platform/store/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "kysely", message: "Only stores (store.ts, *-store.ts) use the query builder; call a store method." }] },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: QUERY_BUILDER_CALLS, message: "Only stores (store.ts, *-store.ts) build queries; call a store method." },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: "Only stores (store.ts, *-store.ts) write SQL; call a store method." },
      ],
    },
  },
  {
    // A connector's requests carry the organization's credentials: they reach the network only
    // through the provider transport, which keeps them on the provider's configured API.
    files: ["src/features/connectors/**/*.ts"],
    ignores: ["src/features/connectors/provider-transport.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        {
          name: "fetch",
          message: "Connectors call their provider through ProviderTransport (provider-transport.ts), which keeps credentials on the configured API.",
        },
      ],
    },
  },
  {
    plugins: { local: { rules: { "no-swallowed-error": noSwallowedError } } },
    rules: { "local/no-swallowed-error": "error" },
  },
);
