import { describe, expect, it } from 'vitest';
import { addChatMedia, mediaLink } from '../../../shared/api/media.ts';
import { setApiBase } from '../../../shared/api/request.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { apiFailure, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { fieldsOf, formOf } from '../../helpers/multipart.ts';

const ANSWER = { chatMediaId: 'm1', image: { imgSrcAll: '/api/Chat/GetChatMedia?chatMediaId=m1' }, pageFilePath: '', iconStr: '', pageUrl: '', pageTitle: 'a.png' };

const server = serveTheseTests((_req, res) => sendEnvelope(res, { Code: 10000, Data: ANSWER }));

describe('addChatMedia', () => {
  it('posts the fields and the bytes as multipart: an image as imageFile, anything else as pageFile', async () => {
    await expect(addChatMedia({ mediaType: 'image', pageTitle: 'a.png', aiModelId: 'vision' }, new Blob(['png'], { type: 'image/png' }), 'a.png')).resolves.toEqual(ANSWER);
    await addChatMedia({ mediaType: 'html', pageTitle: 'Otters', pageUrl: 'https://example.com/' }, new Blob(['# Otters'], { type: 'text/markdown' }), 'page.md');
    const [image, page] = await Promise.all(server.requests.map(formOf));
    expect(server.requests[0].url).toBe('/api/Chat/AddChatMedia');
    expect(server.requests[0].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(fieldsOf(image)).toEqual({ mediaType: 'image', pageTitle: 'a.png', pageUrl: '', aiModelId: 'vision' });
    expect((image.get('imageFile') as File).name).toBe('a.png');
    expect(fieldsOf(page)).toEqual({ mediaType: 'html', pageTitle: 'Otters', pageUrl: 'https://example.com/' });
    expect(await (page.get('pageFile') as File).text()).toBe('# Otters');
    expect(image.has('pageFile') || page.has('imageFile')).toBe(false);
  });

  it("keeps the server's refusal; any other failure is 10500 uploadMediaFail; an abort stays 10087", async () => {
    server.handle((_req, res) => sendEnvelope(res, { Code: 10422, Msg: 'Only png, jpg and pdf files can be attached.' }));
    let error = await apiFailure(addChatMedia({ mediaType: 'file' }, new Blob(['x']), 'x.exe'));
    expect([error.code, error.message]).toEqual([10422, 'Only png, jpg and pdf files can be attached.']);

    server.handle((_req, res) => void res.writeHead(502).end());
    error = await apiFailure(addChatMedia({ mediaType: 'file' }, new Blob(['x']), 'x.pdf'));
    expect([error.code, error.message, error.status]).toEqual([10500, 'The attachment could not be uploaded', 502]);

    server.handle((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('not json'));
    error = await apiFailure(addChatMedia({ mediaType: 'file' }, new Blob(['x']), 'x.pdf'));
    expect([error.code, error.message]).toEqual([10500, 'The attachment could not be uploaded']);

    await setLanguage('zh');
    error = await apiFailure(addChatMedia({ mediaType: 'file' }, new Blob(['x']), 'x.pdf'));
    expect(error.message).toBe('附件上传失败');

    server.handle(() => undefined);
    const controller = new AbortController();
    const pending = addChatMedia({ mediaType: 'file' }, new Blob(['x']), 'x.pdf', controller.signal);
    controller.abort();
    expect((await apiFailure(pending)).code).toBe(10087);
  });

  it('resolves image links against the server in use', () => {
    expect(mediaLink('/api/Chat/GetChatMedia?chatMediaId=m1')).toBe(`${server.url}/api/Chat/GetChatMedia?chatMediaId=m1`);
    expect(mediaLink('https://cdn.example.net/a.png')).toBe('https://cdn.example.net/a.png');
    expect(mediaLink('')).toBe('');
    // The web app talks to its own origin: links resolve against it.
    setApiBase('');
    expect(mediaLink('/files/a.png')).toBe(`${location.origin}/files/a.png`);
  });
});
