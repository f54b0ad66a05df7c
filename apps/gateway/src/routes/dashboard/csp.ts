/**
 * The Content-Security-Policy of every dashboard answer: nothing but the gateway's own files, no inline script or style,
 * no framing, forms only to the gateway. `img-src data:` is for the browser's own form controls.
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'";

/**
 * The consent page's policy: the dashboard's, except that its form may also lead to the client's redirect URI (the
 * answer to the form is a redirect there, and browsers apply form-action to the redirect as well).
 */
export function consentCsp(redirectUri: string): string {
  const url = new URL(redirectUri);
  const target = url.host ? url.origin : url.protocol;
  return DASHBOARD_CSP.replace("form-action 'self'", `form-action 'self' ${target}`);
}
