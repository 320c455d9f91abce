import type MarkdownIt from 'markdown-it';
import type { StateBlock, StateInline } from 'markdown-it';

/**
 * `\(…\)` and `\[…\]`, the LaTeX delimiters models often use, as the same math tokens the KaTeX
 * plugin makes for `$…$` and `$$…$$`. Done as parser rules rather than by rewriting the text, so
 * code spans and code blocks keep them literally for free. Shared by the app's renderer
 * (shared/markdown/render.ts) and the server's PDF export (server/services/export/), so both see the
 * same math.
 */
export function addBracketMath(md: MarkdownIt): void {
  // Before 'escape', which would otherwise turn `\(` into a literal "(".
  md.inline.ruler.before('escape', 'math_bracket_inline', bracketInline);
  md.block.ruler.after('blockquote', 'math_bracket_block', bracketBlock, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
}

function bracketInline(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const pos = state.pos;
  if (src.charCodeAt(pos) !== 0x5c /* \ */) return false;
  const open = src[pos + 1];
  if (open !== '(' && open !== '[') return false;
  const close = open === '(' ? '\\)' : '\\]';
  const end = src.indexOf(close, pos + 2);
  // Unclosed (or empty): not math; the escape rule shows the bracket as text.
  if (end < 0 || src.slice(pos + 2, end).trim() === '') return false;
  if (!silent) {
    // An inline `\[…\]` reuses the plugin's display token; render.ts turns a map-less one into a span.
    const token = state.push(open === '(' ? 'math_inline' : 'math_block', 'math', 0);
    token.markup = open === '(' ? '\\(' : '\\[';
    token.content = src.slice(pos + 2, end);
  }
  state.pos = end + 2;
  return true;
}

function bracketBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const start = state.bMarks[startLine] + state.tShift[startLine];
  const max = state.eMarks[startLine];
  // Four spaces of indent make an indented code block, not math.
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  if (state.src.slice(start, start + 2) !== '\\[') return false;

  const first = state.src.slice(start + 2, max);
  const closeOnFirst = first.lastIndexOf('\\]');
  let content: string;
  let next = startLine;
  if (closeOnFirst >= 0) {
    // `\[ … \]` on one line is a block only when nothing follows the closing bracket.
    if (first.slice(closeOnFirst + 2).trim() !== '') return false;
    if (silent) return true;
    content = first.slice(0, closeOnFirst);
  } else {
    if (silent) return true;
    const lines = [first];
    let closed = false;
    while (!closed) {
      next++;
      if (next >= endLine) break;
      const lineStart = state.bMarks[next] + state.tShift[next];
      const lineMax = state.eMarks[next];
      // A line indented less than the enclosing block (a list item, say) ends it.
      if (lineStart < lineMax && state.sCount[next] < state.blkIndent) break;
      const line = state.src.slice(lineStart, lineMax);
      const at = line.lastIndexOf('\\]');
      if (at >= 0 && line.slice(at + 2).trim() === '') {
        lines.push(line.slice(0, at));
        closed = true;
      } else {
        lines.push(line);
      }
    }
    // Unclosed: like the plugin's `$$`, the math runs to the end, so a streaming formula stays one block.
    if (!closed) next = Math.min(next, endLine) - 1;
    content = lines.join('\n');
  }
  state.line = next + 1;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = content;
  token.markup = '\\[';
  token.map = [startLine, state.line];
  return true;
}
