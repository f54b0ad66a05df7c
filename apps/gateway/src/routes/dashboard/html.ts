import { escapeHtml } from '@portico/core';

/**
 * HTML from tagged templates: every interpolated value is escaped unless it is itself `Html` (the result of `html`
 * or of `raw` on a constant). Pages are built only through `html`, so that no request value reaches the page unescaped.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type Interpolation = Html | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** Trusted markup (a constant of the code, never a request value). */
export const raw = (text: string): Html => new Html(text);

/** JSON for a `<script type="application/json">` element: `<` escaped so that the text cannot close the element. */
export function jsonScript(id: string, value: unknown): Html {
  const text = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return new Html(`<script type="application/json" id="${escapeHtml(id)}">${text}</script>`);
}
