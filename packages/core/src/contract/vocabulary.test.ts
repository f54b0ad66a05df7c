import { describe, expect, it } from 'vitest';
import { examplePlugin } from '../testing/example-plugin.js';
import { Registry, RegistryError } from './registry.js';
import { vocabularyProblems } from './vocabulary.js';

describe('plugin vocabularies', () => {
  it('names what is wrong: empty words, cues that say nothing, phrases that are no regular expression', () => {
    expect(
      vocabularyProblems({ names: ['Acme'], cues: ['#*'], synonyms: { item: ['thing'] }, phrases: { 'line items?': 'item' } }),
    ).toEqual([]);
    expect(vocabularyProblems({ names: [' '] })).toEqual(['names: an empty entry']);
    expect(vocabularyProblems({ cues: ['*'] })).toEqual(['cues: "*" says nothing']);
    expect(vocabularyProblems({ synonyms: { item: [''] } })).toEqual(['synonyms of item: an empty entry']);
    expect(vocabularyProblems({ phrases: { '(unclosed': 'item' } })).toEqual(['phrases: "(unclosed" is not a valid regular expression']);
  });

  it('refuses to register a plugin whose vocabulary is wrong', () => {
    const registry = new Registry();
    expect(() => registry.register({ ...examplePlugin, vocabulary: { phrases: { '(unclosed': 'item' } } })).toThrow(RegistryError);
    expect(() => registry.register({ ...examplePlugin, vocabulary: { synonyms: { item: ['thing'] } } })).not.toThrow();
  });
});

describe('preferred operations', () => {
  const withPreferred = (preferred: string) => ({
    ...examplePlugin,
    operations: examplePlugin.operations.map((operation) =>
      operation.name === 'get_current_item' ? { ...operation, preferred } : operation,
    ),
  });

  it('accepts another operation of the plugin and refuses a name it does not have, or its own', () => {
    expect(() => new Registry().register(withPreferred('get_item'))).not.toThrow();
    expect(() => new Registry().register(withPreferred('get_thing'))).toThrow(/preferred names get_thing/);
    expect(() => new Registry().register(withPreferred('get_current_item'))).toThrow(RegistryError);
  });
});
