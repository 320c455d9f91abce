import { describe, expect, it } from 'vitest';
import { stripProductTags } from '../../../shared/utils/strip-tags.ts';

describe('stripProductTags', () => {
  it('leaves text without custom tags untouched', () => {
    const text = 'a < b and <div> stays, <tan is not a tag';
    expect(stripProductTags(text)).toBe(text);
  });

  it('removes both tags with their contents', () => {
    expect(stripProductTags('Hi <tandem>{"id":1}</tandem>there')).toBe('Hi there');
    expect(stripProductTags('A<tandem-a>ref</tandem-a>B')).toBe('AB');
  });

  it('is case-insensitive and accepts attributes, also with quoted ">"', () => {
    expect(stripProductTags('x<TANDEM type="a>b" n=\'1\'>secret</Tandem>y')).toBe('xy');
    expect(stripProductTags('x<Tandem-A href="u">s</TANDEM-a>y')).toBe('xy');
  });

  it('removes self-closing tags only', () => {
    expect(stripProductTags('one<tandem/>two<tandem-a id="1" />three')).toBe('onetwothree');
  });

  it('handles nesting, including the same tag nested in itself', () => {
    expect(stripProductTags('a<tandem>1<tandem-a>2</tandem-a>3</tandem>b')).toBe('ab');
    expect(stripProductTags('a<tandem>1<tandem>2</tandem>3</tandem>b')).toBe('ab');
  });

  it('drops a stray closing tag without eating text', () => {
    expect(stripProductTags('a</tandem>b')).toBe('ab');
  });

  it('does not take <tandemx> or <tandem-ab> for the product tags', () => {
    expect(stripProductTags('<tandemx>k</tandemx>')).toBe('<tandemx>k</tandemx>');
    expect(stripProductTags('<tandem-ab>k')).toBe('<tandem-ab>k');
  });

  it('hides everything after an unclosed opening tag', () => {
    expect(stripProductTags('Answer <tandem>{"partial": tr')).toBe('Answer ');
    expect(stripProductTags('Answer <tandem-a>x<tandem>y</tandem>z')).toBe('Answer ');
  });

  it('hides a tag still arriving at the end of a streaming text', () => {
    for (const tail of ['<', '<t', '<tand', '<tandem', '<tandem-', '<tandem-a', '<tandem id="1', '</tande']) {
      expect(stripProductTags(`Answer ${tail}`, { streaming: true })).toBe('Answer ');
    }
    // Ordinary text ending in "<" or a word is kept once the stream is complete.
    expect(stripProductTags('a <', { streaming: false })).toBe('a <');
    expect(stripProductTags('a <b', { streaming: true })).toBe('a <b');
    expect(stripProductTags('a <tanx', { streaming: true })).toBe('a <tanx');
  });

  it('gives the same result at each streaming step as the final text would show', () => {
    const full = 'Start <tandem data="x">hidden</tandem> middle <tandem-a/>end.';
    const shown: string[] = [];
    for (let i = 1; i <= full.length; i++) shown.push(stripProductTags(full.slice(0, i), { streaming: true }));
    const final = stripProductTags(full);
    expect(final).toBe('Start  middle end.');
    for (const step of shown) {
      expect(step).not.toMatch(/hidden|tandem|data=/);
      expect(final.startsWith(step)).toBe(true);
    }
  });
});
