/** Formats a FLOAT the way Neo4j (Java's Double.toString) does: `1.0`, `0.001`, `1.0E7`, `NaN`. */
export function formatFloat(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (!Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
  const abs = Math.abs(v);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(v);
    return s.includes(".") ? s : `${s}.0`;
  }
  const [mantissa = "", exponent = "0"] = v.toExponential().split("e");
  const m = mantissa.includes(".") ? mantissa : `${mantissa}.0`;
  return `${m}E${exponent.replace("+", "")}`;
}
