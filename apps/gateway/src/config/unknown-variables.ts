import { distance } from 'fastest-levenshtein';
import { ENVIRONMENT } from './environment.js';
import { SECRET_NAME } from './secret-files.js';

/**
 * `PORTICO_*` variables that are not the gateway's: the test suite's and CI's switches, which processes started by
 * them inherit. They are neither refused nor warned about.
 */
const NOT_THE_GATEWAYS = /^PORTICO_(TEST_|REQUIRE_|FUZZ_|BENCH_)|^PORTICO_(CHROMIUM|UPSTREAM_SPECS_DIR|PRISM_ONLY|HAPROXY|NGINX|IMAGE)$/;

/** An unknown name this close to a known one (edit distance) is a misspelling: the start is refused. */
const MISSPELT_WITHIN = 2;

const exact = ENVIRONMENT.map((variable) => variable.name).filter((name) => !name.includes('<'));
/** The per-service variables, as the part after the service (`_BASE_URL`, `_CLIENT_ID`…). */
const perService = ENVIRONMENT.map((variable) => /^PORTICO_<SERVICE>(_[A-Z_]+)$/.exec(variable.name)?.[1])
  .filter((suffix): suffix is string => suffix !== undefined)
  .flatMap((suffix) => (suffix === '_OAUTH_AUTHORIZE_URL' ? [suffix, '_OAUTH_TOKEN_URL', '_OAUTH_REVOKE_URL'] : [suffix]));
const PER_SERVICE = new RegExp(`^PORTICO_[A-Z0-9]+(${perService.join('|')})$`);

/** Whether the gateway reads `name`: one of its variables, a per-service one, or a secret given as a file. */
function isKnown(name: string): boolean {
  if (exact.includes(name) || PER_SERVICE.test(name)) return true;
  const base = name.endsWith('_FILE') ? name.slice(0, -'_FILE'.length) : undefined;
  return base !== undefined && SECRET_NAME.test(base) && (exact.includes(base) || PER_SERVICE.test(base));
}

/** The known variable nearest `name`, the per-service ones spelt with the service `name` names. */
function nearest(name: string): { name: string; distance: number } {
  const service = /^PORTICO_([A-Z0-9]+)_/.exec(name)?.[1] ?? 'SERVICE';
  const candidates = [
    ...exact,
    ...exact.filter((known) => SECRET_NAME.test(known)).map((known) => `${known}_FILE`),
    ...perService.map((suffix) => `PORTICO_${service}${suffix}`),
  ];
  let best = { name: exact[0] as string, distance: Number.POSITIVE_INFINITY };
  for (const candidate of candidates) {
    const d = distance(name, candidate);
    if (d < best.distance) best = { name: candidate, distance: d };
  }
  return best;
}

export interface UnknownVariables {
  /** Misspellings of a known variable: the configuration is refused, each naming the variable meant. */
  refused: string[];
  /** Other unknown `PORTICO_*` variables: said at start, with the nearest known one. */
  warnings: string[];
}

/** The `PORTICO_*` variables of `env` the gateway does not read (values are never looked at, so never echoed). */
export function unknownVariables(env: NodeJS.ProcessEnv): UnknownVariables {
  const result: UnknownVariables = { refused: [], warnings: [] };
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('PORTICO_') || NOT_THE_GATEWAYS.test(name) || isKnown(name)) continue;
    const near = nearest(name);
    if (near.distance <= MISSPELT_WITHIN) {
      result.refused.push(`${name} is not a Portico variable: did you mean ${near.name}? (portico env lists them all)`);
    } else {
      result.warnings.push(`${name} is not a Portico variable and is ignored; the nearest is ${near.name} (portico env lists them all)`);
    }
  }
  return result;
}
