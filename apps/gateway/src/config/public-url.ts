import { isIP } from 'node:net';

/**
 * Whether the public URL can serve hosted assistants. Claude and ChatGPT connect to a connector from their own cloud,
 * not from the user's machine: they need an https URL reachable from the internet. An http URL on a name or address
 * other than loopback is neither, and is most likely a mistake; loopback is fine for local clients (an editor, MCP
 * Inspector) and tests.
 */
export function publicUrlWarning(publicUrl: string | undefined): string | undefined {
  if (!publicUrl) return undefined;
  const url = new URL(publicUrl);
  if (url.protocol === 'https:') return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = host === 'localhost' || host.endsWith('.localhost') || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
  if (loopback) return undefined;
  return (
    `PORTICO_PUBLIC_URL is ${url.origin}, not https: Claude and ChatGPT connect from their cloud and need a public https ` +
    'URL (put the gateway behind a TLS-terminating proxy and set PORTICO_PUBLIC_URL to its https address); ' +
    'browsers and OAuth clients may also refuse an http authorization server'
  );
}
