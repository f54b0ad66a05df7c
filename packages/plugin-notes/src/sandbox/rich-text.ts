// Rich text: Notion's runs of text and mentions, read from a request and written back in full.
import { bodyInvalid, show } from './errors.js';
import { isObject, type Json } from './json.js';

const DEFAULT_ANNOTATIONS = { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' };

/** Names what a mention points at (a user's name, a page's title) for its plain_text. */
export type MentionLabel = (mention: Json) => string;

export function plainText(richText: unknown): string {
  if (!Array.isArray(richText)) return '';
  return richText.map((item) => (isObject(item) && typeof item.plain_text === 'string' ? item.plain_text : '')).join('');
}

/** A rich text object as Notion stores it, from a single string. */
export function textRun(content: string, link?: string): Json {
  return {
    type: 'text',
    text: { content, link: link ? { url: link } : null },
    annotations: { ...DEFAULT_ANNOTATIONS },
    plain_text: content,
    href: link ?? null,
  };
}

/** Rich text input (`[{ text: { content } }]`) → the full objects Notion stores and returns. */
export function toRichText(input: unknown, path: string, label: MentionLabel): Json[] {
  if (!Array.isArray(input)) throw bodyInvalid(path, `should be an array, instead was \`${show(input)}\``);
  if (input.length > 100) throw bodyInvalid(`${path}.length`, `should be ≤ \`100\`, instead was \`${input.length}\``);
  return input.map((item, i) => richTextItem(item, `${path}[${i}]`, label));
}

function richTextItem(item: unknown, path: string, label: MentionLabel): Json {
  if (!isObject(item)) throw bodyInvalid(path, `should be an object, instead was \`${show(item)}\``);
  const type =
    typeof item.type === 'string'
      ? item.type
      : 'text' in item
        ? 'text'
        : 'mention' in item
          ? 'mention'
          : 'equation' in item
            ? 'equation'
            : '';
  const annotations = { ...DEFAULT_ANNOTATIONS, ...(isObject(item.annotations) ? item.annotations : {}) };
  if (type === 'text') {
    const text = item.text;
    if (!isObject(text) || typeof text.content !== 'string')
      throw bodyInvalid(`${path}.text.content`, 'should be defined, instead was `undefined`');
    if (text.content.length > 2000) {
      throw bodyInvalid(`${path}.text.content.length`, `should be ≤ \`2000\`, instead was \`${text.content.length}\``);
    }
    const link = isObject(text.link) && typeof text.link.url === 'string' ? text.link.url : undefined;
    return { ...textRun(text.content, link), annotations };
  }
  if (type === 'mention' && isObject(item.mention)) {
    return { type: 'mention', mention: item.mention, annotations, plain_text: label(item.mention), href: null };
  }
  if (type === 'equation' && isObject(item.equation) && typeof item.equation.expression === 'string') {
    return {
      type: 'equation',
      equation: { expression: item.equation.expression },
      annotations,
      plain_text: item.equation.expression,
      href: null,
    };
  }
  throw bodyInvalid(path, 'should be a rich text object of type `text`, `mention` or `equation`');
}
