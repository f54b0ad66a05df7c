import { ENVIRONMENT } from './environment.js';

/** Markdown to terminal text: the backticks of code spans dropped. */
const plain = (markdown: string) => markdown.replaceAll('`', '');

/** What `portico env` prints: one line per variable, its meaning and default. */
export function environmentListing(): string[] {
  return ENVIRONMENT.map((variable) => `${variable.name.padEnd(30)} ${plain(variable.meaning)} (default: ${plain(variable.default)})`);
}

/** The configuration table of docs/configuration.md (`portico env --markdown`), its columns padded to their widest cell. */
export function environmentTable(): string {
  const rows = [
    ['Variable', 'Default', 'Meaning'],
    ...ENVIRONMENT.map((variable) => [`\`${variable.name}\``, variable.default, variable.meaning]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] as string).length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] as number)).join(' | ')} |`;
  const [header, ...body] = rows as [string[], ...string[][]];
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}
