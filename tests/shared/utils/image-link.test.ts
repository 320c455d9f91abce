import { describe, expect, it } from 'vitest';
import { imageLink } from '../../../shared/utils/image-link.ts';

describe('imageLink', () => {
  const host = 'https://chat.example.com';

  it('keeps data: and http(s) links as they are', () => {
    expect(imageLink('data:image/png;base64,iVBORw0KGgo=', host)).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(imageLink('https://cdn.example.net/a.png?sig=1', host)).toBe('https://cdn.example.net/a.png?sig=1');
    expect(imageLink('http://127.0.0.1:3000/x.webp', host)).toBe('http://127.0.0.1:3000/x.webp');
    expect(imageLink('HTTPS://CDN.example.net/A.PNG', host)).toBe('HTTPS://CDN.example.net/A.PNG');
  });

  it('prefixes any other non-empty path with the chat host, with one slash between', () => {
    expect(imageLink('/api/Chat/GetChatMedia?chatMediaId=m1&sig=s', host)).toBe('https://chat.example.com/api/Chat/GetChatMedia?chatMediaId=m1&sig=s');
    expect(imageLink('files/a.png', host)).toBe('https://chat.example.com/files/a.png');
    expect(imageLink('/files/a.png', 'http://localhost:3000/')).toBe('http://localhost:3000/files/a.png');
    // Not a web address, only a path that happens to start like one: prefixed too.
    expect(imageLink('//evil.example/a.png', host)).toBe('https://chat.example.com//evil.example/a.png');
  });

  it('gives empty for an empty link', () => {
    expect(imageLink('', host)).toBe('');
    expect(imageLink('   ', host)).toBe('');
    expect(imageLink(null, host)).toBe('');
    expect(imageLink(undefined, host)).toBe('');
  });
});
