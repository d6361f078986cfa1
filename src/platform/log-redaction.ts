/**
 * What log lines must not carry: credentials that arrive in a request's URL or headers. Log files
 * are read by more people, kept longer and copied further than the store; a signed download token
 * (valid up to 7 days) or an API key sent in a query string would be usable by any reader.
 */

const REDACTED = "[redacted]";

/**
 * Paths whose rest is itself a credential: the signed file download URLs. Matched loosely (any
 * case, repeated slashes): a misspelt path answers 404, and its line must not keep the token either.
 */
const CREDENTIAL_PATH = /^(\/+context\/+files\/+).+$/i;

/**
 * Query parameters whose value is a secret: the names clients and proxies use for keys and tokens
 * (`api_key`, `token`, `access_token`, `client_secret`, `signature`, an OAuth `code`, ...), as a
 * whole name or its last `_`/`-`/`.` part. The service reads none of them; a caller may still send one.
 */
const SECRET_PARAM = /(?:^|[_.-])(?:token|secret|password|passwd|pwd|signature|sig|key|apikey|code|auth|authorization|credentials?|jwt|session|sessionid)$/i;

/** Headers that carry credentials, lower-case (Node's spelling), for lines that log headers. */
const SECRET_HEADERS = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-service-signature"] as const;

/** Pino `redact` paths for those headers wherever a line puts a request's or response's headers. */
export const REDACTED_LOG_PATHS: readonly string[] = SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]);

const redactPath = (path: string): string => path.replace(CREDENTIAL_PATH, `$1${REDACTED}`);

function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const at = pair.indexOf("=");
      const rawName = at < 0 ? pair : pair.slice(0, at);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, " "));
      } catch {
        // A malformed escape: judge the name as written.
      }
      return at >= 0 && SECRET_PARAM.test(name) ? `${rawName}=${REDACTED}` : pair;
    })
    .join("&");
}

/** A request URL (path and query, as logged) with its credentials replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return redactPath(url);
  return `${redactPath(url.slice(0, q))}?${redactQuery(url.slice(q + 1))}`;
}
