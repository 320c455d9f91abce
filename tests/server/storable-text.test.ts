import { describe, expect, it } from 'vitest';
import { storableText } from '../../server/core/storable-text.ts';

describe('storableText', () => {
  it('drops NUL and makes lone surrogate halves U+FFFD, keeping pairs and everything else', () => {
    expect(storableText('a\u0000b\u0000')).toBe('ab');
    expect(storableText('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(storableText('\udc00\ud83d\ude00\ud83d')).toBe('\ufffd\ud83d\ude00\ufffd');
    const plain = 'Kyoto 京都 🦦 \t\n';
    expect(storableText(plain)).toBe(plain);
  });
});
