// A `catch` clause must do something with the failure it caught: use the error, rethrow (or throw
// a translated error), or log. Dropping it silently is allowed only with a comment in the block
// that says why dropping it is right (at least three words: "ignore" alone is not a reason).

const LOG_METHODS = new Set(["trace", "debug", "info", "warn", "error", "fatal", "log"]);
const MIN_REASON_WORDS = 3;

/** Walks `node`'s subtree without entering nested functions (their throws and logs are not the catch's). */
function someInBody(node, predicate) {
  if (node === null || typeof node !== "object") return false;
  if (predicate(node)) return true;
  if (node.type === "FunctionDeclaration" || node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression") {
    return false;
  }
  for (const key of Object.keys(node)) {
    if (key === "parent") continue;
    const value = node[key];
    if (Array.isArray(value)) {
      if (value.some((child) => child && typeof child.type === "string" && someInBody(child, predicate))) return true;
    } else if (value && typeof value.type === "string" && someInBody(value, predicate)) {
      return true;
    }
  }
  return false;
}

function isLogCall(node) {
  if (node.type !== "CallExpression") return false;
  const callee = node.callee.type === "ChainExpression" ? node.callee.expression : node.callee;
  if (callee.type === "Identifier") return callee.name === "log";
  return callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier" && LOG_METHODS.has(callee.property.name);
}

/** @type {import("eslint").Rule.RuleModule} */
const rule = {
  meta: {
    type: "problem",
    docs: { description: "a caught error is used, rethrown or logged, or a comment says why it is dropped" },
    schema: [],
    messages: {
      swallowed:
        "This catch drops the error: use it, rethrow, log it through the module's logger, or add a comment in the block saying why dropping it is right.",
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;
    return {
      CatchClause(node) {
        if (node.param) {
          const variables = sourceCode.getDeclaredVariables(node);
          if (variables.some((v) => v.references.length > 0)) return;
        }
        if (someInBody(node.body, (n) => n.type === "ThrowStatement" || isLogCall(n))) return;
        const reasons = sourceCode.getCommentsInside(node.body).filter(
          (c) =>
            c.value
              .trim()
              .split(/\s+/)
              .filter((w) => /\w/.test(w)).length >= MIN_REASON_WORDS,
        );
        if (reasons.length > 0) return;
        context.report({ node, messageId: "swallowed" });
      },
    };
  },
};

export default rule;
