import { type ChoiceName, choicesOf, fallbackOf, type IntegerName, integerRule, type ValueName, type VariableName } from './environment.js';

/** The environment read by the names environment.ts declares: a variable not declared there does not compile. */
export interface EnvironmentReader {
  /** The value as given, or undefined. */
  read(name: VariableName): string | undefined;
  /** The value, or the declared fallback when unset or empty. */
  value(name: ValueName): string;
  /** A whole number within the declared bounds; the declared fallback when unset (or when wrong, with a problem said). */
  int(name: IntegerName): number;
  /** One of the declared words; the first when unset (or when wrong, with a problem said). */
  choose<T extends string>(name: ChoiceName): T;
}

/** Reads `env` by the declared rules, adding what is wrong to `problems`. */
export function environmentReader(env: NodeJS.ProcessEnv, problems: string[]): EnvironmentReader {
  const read = (name: VariableName): string | undefined => env[name];
  return {
    read,
    value: (name) => read(name) || fallbackOf(name),
    int: (name) => {
      const { fallback, min, max } = integerRule(name);
      const raw = read(name);
      if (raw === undefined || raw === '') return fallback;
      const number = Number(raw);
      if (!Number.isInteger(number) || number < min || number > max) {
        problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
        return fallback;
      }
      return number;
    },
    choose: <T extends string>(name: ChoiceName): T => {
      const choices = choicesOf(name);
      const given = read(name) || (choices[0] as string);
      if (choices.includes(given)) return given as T;
      problems.push(`${name} must be ${choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`}`);
      return choices[0] as T;
    },
  };
}
