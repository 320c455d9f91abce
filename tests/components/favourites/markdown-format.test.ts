import { describe, expect, it } from 'vitest';
import { applyMarkdownFormat } from '../../../components/favourites/markdown-format.ts';

/** The editor toolbar's edits of Markdown source, and the selection they leave. */
describe('applyMarkdownFormat', () => {
  it('wraps the selection, or inserts a selected placeholder when nothing is selected', () => {
    expect(applyMarkdownFormat('say hello now', 4, 9, 'bold')).toEqual({ text: 'say **hello** now', start: 6, end: 11 });
    expect(applyMarkdownFormat('say hello now', 4, 9, 'italic')).toEqual({ text: 'say _hello_ now', start: 5, end: 10 });
    expect(applyMarkdownFormat('ab', 1, 1, 'code')).toEqual({ text: 'a`code`b', start: 2, end: 6 });
    expect(applyMarkdownFormat('', 0, 0, 'codeBlock')).toEqual({ text: '```\ncode\n```', start: 4, end: 8 });
  });

  it('makes a link of the selection with its address selected', () => {
    const edit = applyMarkdownFormat('see docs', 4, 8, 'link');
    expect(edit.text).toBe('see [docs](https://)');
    expect(edit.text.slice(edit.start, edit.end)).toBe('https://');
  });

  it('prefixes every selected line (heading, lists, quote)', () => {
    const text = 'intro\none\ntwo\nend';
    expect(applyMarkdownFormat(text, 6, 13, 'list').text).toBe('intro\n- one\n- two\nend');
    expect(applyMarkdownFormat(text, 6, 13, 'numbered').text).toBe('intro\n1. one\n2. two\nend');
    expect(applyMarkdownFormat(text, 7, 7, 'heading').text).toBe('intro\n## one\ntwo\nend');
    expect(applyMarkdownFormat(text, 15, 15, 'quote').text).toBe('intro\none\ntwo\n> end');
  });
});
