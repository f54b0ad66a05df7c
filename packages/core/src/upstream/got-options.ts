import { createHash } from 'node:crypto';
import { checkServerIdentity } from 'node:tls';

/**
 * got builds the options of every request it hands to `http.request` in `Options#createNativeRequestOptions`: one
 * object literal that spreads two objects first and then names about thirty properties. On the V8 of Node 20 each
 * property written after a spread in a literal is a call into the runtime, about a microsecond each: the literal costs
 * 34–87 µs per request as timed here, more than the rest of got's option handling together. The
 * replacement below builds the same options — same values, same precedence (the named properties win over the two
 * spread objects) — as a plain literal, then adds the spread objects' other keys.
 *
 * It replaces got's method only when that method is the one it was written against (the SHA-256 of its source text,
 * got 14.6.6); any other got is left as it is. HTTP/2 requests keep got's own method.
 */

/** SHA-256 of `Options.prototype.createNativeRequestOptions.toString()` in the got versions the replacement mirrors. */
const KNOWN_SOURCES = new Set(['b9f570eece4d7faeebfb8b84b6e5bf97e2ed57821499631309c998f45a5b442f']);

/** The parts of got's `Options` the replacement reads: its internals as got 14 keeps them. */
interface Internals {
  url: URL;
  http2: boolean;
  agent: { http?: unknown; https?: unknown };
  https: Record<string, unknown>;
  cacheOptions: Record<string, unknown>;
  dnsLookup: unknown;
  dnsCache?: { lookup?: unknown } | undefined;
  dnsLookupIpVersion: unknown;
  setHost: unknown;
  method: unknown;
  maxHeaderSize: unknown;
  localAddress: unknown;
  headers: unknown;
  createConnection: unknown;
  h2session: unknown;
}

interface OptionsInstance {
  _internals: Internals;
  _unixOptions?: Record<string, unknown> | undefined;
}

type NativeOptionsBuilder = (this: OptionsInstance) => Record<string, unknown>;

/** Whether got's `Options` class now builds its request options without the slow literal (false: left as it was). */
export function tuneGotOptions(Options: { prototype: object }): boolean {
  const prototype = Options.prototype as { createNativeRequestOptions?: NativeOptionsBuilder; [TUNED]?: true };
  const original = prototype.createNativeRequestOptions;
  if (prototype[TUNED]) return true;
  if (typeof original !== 'function' || !KNOWN_SOURCES.has(sourceHash(original))) return false;
  prototype.createNativeRequestOptions = function createNativeRequestOptions(this: OptionsInstance) {
    const internals = this._internals;
    if (internals.http2) return original.call(this);
    const https = internals.https;
    const options: Record<string, unknown> = {
      ALPNProtocols: https.alpnProtocols,
      ca: https.certificateAuthority,
      cert: https.certificate,
      key: https.key,
      passphrase: https.passphrase,
      pfx: https.pfx,
      rejectUnauthorized: https.rejectUnauthorized,
      checkServerIdentity: https.checkServerIdentity ?? checkServerIdentity,
      servername: https.serverName,
      ciphers: https.ciphers,
      honorCipherOrder: https.honorCipherOrder,
      minVersion: https.minVersion,
      maxVersion: https.maxVersion,
      sigalgs: https.signatureAlgorithms,
      sessionTimeout: https.tlsSessionLifetime,
      dhparam: https.dhparam,
      ecdhCurve: https.ecdhCurve,
      crl: https.certificateRevocationLists,
      secureOptions: https.secureOptions,
      lookup: internals.dnsLookup ?? internals.dnsCache?.lookup,
      family: internals.dnsLookupIpVersion,
      agent: internals.url.protocol === 'https:' ? internals.agent.https : internals.agent.http,
      setHost: internals.setHost,
      method: internals.method,
      maxHeaderSize: internals.maxHeaderSize,
      localAddress: internals.localAddress,
      headers: internals.headers,
      createConnection: internals.createConnection,
      timeout: undefined,
      h2session: internals.h2session,
    };
    // got spreads the cache options, then the socket path's: of two equal keys the later one won
    addAbsent(options, this._unixOptions);
    addAbsent(options, internals.cacheOptions);
    return options;
  };
  prototype[TUNED] = true;
  originals.set(prototype, original);
  return true;
}

const TUNED = Symbol.for('portico.gotOptionsTuned');
const originals = new WeakMap<object, NativeOptionsBuilder>();

/** got's own method, once {@link tuneGotOptions} replaced it (the tests compare the two). */
export function gotOwnOptionsBuilder(Options: { prototype: object }): NativeOptionsBuilder | undefined {
  return originals.get(Options.prototype);
}

/** The keys of `source` that `target` does not have: in got's literal, the named properties win over the spreads. */
function addAbsent(target: Record<string, unknown>, source: Record<string, unknown> | undefined): void {
  if (!source) return;
  for (const key of Object.keys(source)) if (!Object.hasOwn(target, key)) target[key] = source[key];
}

function sourceHash(fn: (...args: never[]) => unknown): string {
  return createHash('sha256').update(fn.toString()).digest('hex');
}
