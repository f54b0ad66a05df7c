import { redactSecrets } from './failures.js';

/** Shortest value blanked out: shorter ones would blank out ordinary words. */
const MIN_VALUE = 4;
/** Runs of base64, base64url or hex characters at least this long are decoded and looked into. */
const MIN_ENCODED_RUN = 8;
/** An encoding inside an encoding (base64 of a hex dump…) is looked into this deep. */
const MAX_DEPTH = 2;
const ENCODED_RUN = new RegExp(`[A-Za-z0-9+/_-]{${MIN_ENCODED_RUN},}={0,2}`, 'g');

/**
 * `text` with each of `values` (secrets the gateway sent: a client secret, a refresh token, a code) blanked out in
 * every form a provider may echo it in — as sent, URL-encoded, form-encoded, base64 and base64url — and then with
 * {@link redactSecrets}. An echo of more than the value (the whole request body in base64 or hex, at any alignment) is
 * found by decoding: any run of base64, base64url or hex characters that decodes to text holding a value, in any of
 * those forms, is blanked out whole. Values shorter than 4 characters are left alone.
 */
export function redactValues(text: string, values: readonly string[]): string {
  const secrets = values.filter((value) => value.length >= MIN_VALUE);
  if (secrets.length === 0) return redactSecrets(text);
  const forms = new Set<string>();
  for (const value of secrets) {
    const base64 = Buffer.from(value).toString('base64');
    for (const form of [
      value,
      encodeURIComponent(value),
      new URLSearchParams({ v: value }).toString().slice(2),
      base64,
      base64.replace(/=+$/, ''),
      Buffer.from(value).toString('base64url'),
    ])
      if (form.length >= MIN_VALUE) forms.add(form);
  }
  // longest first: a value inside another's encoding is blanked with the whole
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  // encoded runs first: blanking a value's own base64 inside a longer run would leave the rest of the run readable
  let out = text.replace(ENCODED_RUN, (run) => (holdsSecret(run, ordered, MAX_DEPTH) ? '[redacted]' : run));
  for (const form of ordered) out = out.split(form).join('[redacted]');
  return redactSecrets(out);
}

/** Whether `run` (base64, base64url or hex), decoded at any alignment, holds one of `forms`, or an encoding that does. */
function holdsSecret(run: string, forms: readonly string[], depth: number): boolean {
  for (const decoded of decodings(run)) {
    if (forms.some((form) => decoded.includes(form))) return true;
    if (depth > 1) {
      for (const inner of decoded.match(ENCODED_RUN) ?? []) if (holdsSecret(inner, forms, depth - 1)) return true;
    }
  }
  return false;
}

/** What `run` may be an encoding of: hex (either case), and base64/base64url read from each of the four alignments. */
function decodings(run: string): string[] {
  const out: string[] = [];
  const hex = run.replace(/=+$/, '');
  if (/^[0-9a-fA-F]+$/.test(hex)) {
    out.push(Buffer.from(hex.slice(0, hex.length - (hex.length % 2)), 'hex').toString('latin1'));
    if (hex.length > 2) out.push(Buffer.from(hex.slice(1, hex.length - ((hex.length - 1) % 2)), 'hex').toString('latin1'));
  }
  // an echo glued to a word ("b64Z3JhbnQ…") starts off the 4-character grid: each offset is one reading
  for (let offset = 0; offset < 4 && run.length - offset >= MIN_ENCODED_RUN; offset++) {
    out.push(Buffer.from(run.slice(offset), 'base64').toString('latin1'));
  }
  return out;
}
