import { describe, it } from "node:test";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import rule from "../../eslint-rules/no-swallowed-error.js";

// RuleTester reports each case as a test of the runner it is given.
RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const swallowed = [{ messageId: "swallowed" }];

tester.run("no-swallowed-error", rule, {
  valid: [
    { name: "uses the error", code: "try { f(); } catch (err) { report(err); }" },
    { name: "uses it in a condition", code: "try { f(); } catch (err) { if (err instanceof TypeError) return; }" },
    { name: "rethrows", code: "try { f(); } catch (err) { cleanup(); throw err; }" },
    { name: "throws a translated error", code: "try { new URL(raw); } catch { throw new ConfigError('PUBLIC_URL must be a URL'); }" },
    { name: "logs through a logger", code: "try { f(); } catch { this.log.warn({}, 'reconcile failed'); }" },
    { name: "logs through an optional logger", code: "try { f(); } catch { logger?.error({}, 'failed'); }" },
    { name: "states why dropping it is right", code: "try { f(); } catch {\n  // Not valid UTF-8: decoded as latin-1 instead.\n  g();\n}" },
    { name: "a block comment reason", code: "try { f(); } catch { /* the process already exited */ }" },
  ],
  invalid: [
    { name: "an empty catch", code: "try { f(); } catch {}", errors: swallowed },
    { name: "returns a default", code: "function g() { try { return f(); } catch { return null; } }", errors: swallowed },
    { name: "a named error left unused", code: "try { f(); } catch (err) { retry(); }", errors: swallowed },
    { name: "a comment that states no reason", code: "try { f(); } catch {\n  // fall through\n}", errors: swallowed },
    { name: "a throw inside a nested function is not a rethrow", code: "try { f(); } catch { later(() => { throw new Error('x'); }); }", errors: swallowed },
    { name: "a log inside a nested function does not run here", code: "try { f(); } catch { later(() => log.warn({}, 'x')); }", errors: swallowed },
    { name: "a call that is not a log", code: "try { f(); } catch { this.queue.release(job); }", errors: swallowed },
  ],
});
