import js from "@eslint/js";
import tseslint from "typescript-eslint";
import noSwallowedError from "./eslint-rules/no-swallowed-error.js";

export default tseslint.config(
  { ignores: ["dist/**", "data/**", "node_modules/**", "**/*.js", "**/*.mjs", "eslint-rules/*.d.ts"] },
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
    plugins: { local: { rules: { "no-swallowed-error": noSwallowedError } } },
    rules: { "local/no-swallowed-error": "error" },
  },
);
