/** Text for the doc comments at the head of generated files. */

/**
 * `text` broken into doc comment lines of at most `width` characters, joined by the comment's
 * line prefix (`\n * `): for a paragraph after a leading ` * `.
 */
export function wrapDocComment(text: string, width = 96): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join('\n * ');
}
