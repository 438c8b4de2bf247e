/**
 * Query parameters that carry secrets in this app's URLs: the pairing state (a bearer secret
 * while the pairing is open) and `next`, which can hold a whole approval link. Their values
 * never reach a log line.
 */
const SECRET_PARAMS = /^(state|next|return|token|access_token|code|secret|password|key)$/i;
const REDACTED = '[redacted]';

/** The URL as a log may show it: the path as sent, secret query values replaced. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // An undecodable name is logged as sent; it cannot be one of ours.
      }
      return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}
