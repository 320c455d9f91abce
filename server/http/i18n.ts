import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Language } from '../../shared/contracts/common.ts';

/** The server's own messages, in both languages. TypeScript keeps the two in step. */
const en = {
  ok: '',
  badRequest: 'Invalid request: {{detail}}',
  invalidJson: 'The request body is not valid JSON.',
  unsupportedMediaType: 'Unsupported content type. Send JSON (application/json-patch+json or application/json).',
  payloadTooLarge: 'The request is too large.',
  notLoggedIn: 'Please Login',
  forbidden: 'You do not have permission to do this.',
  notFound: 'Not found.',
  settingNotFound: 'There is no setting named {{key}}.',
  settingKeyInvalid: 'A setting key is 1 to 64 lower-case letters, digits or underscores.',
  settingUrlInvalid: 'A setting ending in _url must be an http:// or https:// address.',
  settingFromEnvironment: 'The setting {{key}} comes from the server environment (EXTENSION_IDS); change it there and restart.',
  routeNotFound: 'request not found',
  rateLimited: 'Too many attempts. Please try again in {{seconds}} seconds.',
  serverError: 'server error',
  loginFailed: 'Wrong e-mail or password.',
  accountClosed: 'This account is closed.',
  tempKeyInvalid: 'This login link has expired or was already used. Please sign in again.',
  emailTaken: 'An account with this e-mail already exists. Sign in instead.',
  passwordTooShort: 'The password must be at least 8 characters.',
  nicknameRequired: 'Nickname cannot be empty.',
  sessionTitleRequired: 'Chat name is require',
  modelNotFound: 'This model does not exist or is offline. Pick another model.',
  planRequired: '{{model}} needs the {{plan}} plan or higher. Upgrade to use it.',
  modelNoImages: '{{model}} cannot read images. Pick a model that supports images, or remove them.',
  noImageModel: 'No model on this server can read images. Remove the images to send this message.',
  modelIdReserved: 'This model id is reserved. Choose another one.',
  modelIdTaken: 'A model with the id {{id}} already exists. Edit it, or choose another id.',
  noModelConfigured:
    'No AI model is configured on this server. An operator must set OPENAI_API_KEY (and OPENAI_MODELS), ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, run Ollama, or add a model in the admin console.',
  notEnoughPoints: 'Not Enough Points. Check in daily for free points.',
  modelBusy: 'This modal is busy now. Please try again later',
  modelMisconfigured:
    'This model is not set up correctly on the server: its provider refused the key or does not know the model. Pick another model, and tell the administrator.',
  contextTooLong: 'This conversation is too long for the model. Start a new chat, remove some attachments, or pick a model with a larger context.',
  modelTimeout: 'The model took too long to answer. Please try again in a moment.',
  internalError: 'Something went wrong on our side. Please try again later; if it keeps happening, tell the administrator (request {{requestId}}).',
  badUrl: 'The address is not valid: it contains a broken percent-encoding (%). Check the link and try again.',
  extractionBusy: 'The server is busy reading other documents. Please try again in a minute.',
  nulCharacter: 'The request contains a NUL character (\\u0000), which text cannot hold. Remove it and try again.',
  messageRequired: 'Edited message required.',
  inputMessageRequired: 'Please enter a message.',
  urlRequired: 'Enter the address of a web page.',
  urlInvalid: 'Enter a web address starting with http:// or https://.',
  pageAddressBlocked: 'This address cannot be read: only public web pages can be read.',
  pagePortBlocked: 'Only web pages on the standard ports (80 and 443) can be read.',
  pageTooManyRedirects: 'The page redirects too many times to be read.',
  pageTimeout: 'The page took too long to answer. Try again later.',
  pageTooLarge: 'The page is too large to be read.',
  pageUnsupported: 'Only web pages (HTML) can be read from an address.',
  pageHttpStatus: 'The site answered with an error, so the page could not be read.',
  pageFetchFailed: 'The page could not be reached. Check the address and try again.',
  pageEmpty: 'No readable text was found on this page.',
  pageUnreadable: 'This page is built in a way that cannot be read (its markup is too large or too deeply nested).',
  webSearchNotConfigured:
    'Web search is not set up on this server. An operator must set SEARXNG_URL, TAVILY_API_KEY or BRAVE_SEARCH_API_KEY. Turn web search off to send this message.',
  modelNoWebSearch: '{{model}} cannot search the web. Pick a model that supports web search, or turn web search off.',
  webSearchFailed: 'The web search failed. Please try again later, or turn web search off.',
  imagesNotConfigured: 'Image generation is not set up on this server. An operator must set IMAGES_BASE_URL and IMAGES_API_KEY.',
  imageFailed: 'The image could not be generated. Please try again later, or change the description.',
  pluginNotFound: 'A plugin you switched on does not exist or was switched off. Turn it off and send again.',
  pluginNotConfigured: 'The {{plugin}} plugin is not set up on this server. Turn it off and send again.',
  uploadFileMissing: 'No file was sent. Choose a file to upload.',
  uploadFileTypeError: 'The file {{name}} cannot be attached: its type is not accepted. Choose a file of one of these types: {{types}}.',
  fileSizeExceed: 'The file is larger than {{max}} MB. Choose a smaller file.',
  attachmentCountExceed: 'Too many attachments: at most {{max}} at once. Remove some and try again.',
  uploadMediaFail: 'The file could not be saved. Please try again later.',
  fileContentMismatch: 'The content of {{name}} is not a valid {{type}} file. Save it in the right format and try again.',
  fileTextInvalid: 'The file {{name}} is not plain text in UTF-8. Save it as UTF-8 text and try again.',
  fileUnreadable: 'The file {{name}} could not be read. It may be damaged or protected by a password.',
  fileNoText:
    'No text was found in {{name}}. A scanned PDF holds only pictures of text: save it with recognised text (OCR), or attach the pages as images.',
  fileTooComplex: 'The file {{name}} holds too much to be read (too many pages, or too large once unpacked). Split it into smaller files.',
  imageTooLarge: 'The image {{name}} has too many pixels to be read. Use a smaller image.',
  mediaGone: 'An attachment of this message is no longer stored. Remove it, attach it again and send.',
  remoteImageBlocked: 'This image cannot be loaded: only images at public web addresses (ports 80 and 443) are shown.',
  remoteImageUnsupported: 'This address is not an image that can be shown (PNG, JPEG, GIF, WebP, AVIF, BMP or ICO).',
  remoteImageTooLarge: 'The image is larger than {{max}} MB, so it is not shown.',
  remoteImageUnreachable: 'The image could not be loaded from its site. Try again later.',
} as const;

type Key = keyof typeof en;

const zh: Record<Key, string> = {
  ok: '',
  badRequest: '请求无效：{{detail}}',
  invalidJson: '请求体不是有效的 JSON。',
  unsupportedMediaType: '不支持的内容类型，请发送 JSON（application/json-patch+json 或 application/json）。',
  payloadTooLarge: '请求内容过大。',
  notLoggedIn: '请登录',
  forbidden: '你没有执行此操作的权限。',
  notFound: '未找到。',
  settingNotFound: '没有名为 {{key}} 的设置。',
  settingKeyInvalid: '设置键须为 1 到 64 个小写字母、数字或下划线。',
  settingUrlInvalid: '以 _url 结尾的设置必须是 http:// 或 https:// 地址。',
  settingFromEnvironment: '设置 {{key}} 来自服务器环境变量（EXTENSION_IDS），请在那里修改并重启。',
  routeNotFound: '请求不存在',
  rateLimited: '尝试次数过多，请在 {{seconds}} 秒后重试。',
  serverError: '服务器错误',
  loginFailed: '邮箱或密码错误。',
  accountClosed: '该账号已关闭。',
  tempKeyInvalid: '登录链接已过期或已被使用，请重新登录。',
  emailTaken: '该邮箱已注册，请直接登录。',
  passwordTooShort: '密码至少需要 8 个字符。',
  nicknameRequired: '昵称不能为空。',
  sessionTitleRequired: '对话名称不能为空',
  modelNotFound: '该模型不存在或已下线，请选择其他模型。',
  planRequired: '{{model}} 需要 {{plan}} 及以上套餐，升级后即可使用。',
  modelNoImages: '{{model}} 无法读取图片。请选择支持图片的模型，或移除图片。',
  noImageModel: '此服务器上没有能读取图片的模型。请移除图片后再发送。',
  modelIdReserved: '该模型 ID 为保留字，请换一个。',
  modelIdTaken: 'ID 为 {{id}} 的模型已存在。请编辑它，或换一个 ID。',
  noModelConfigured:
    '服务器尚未配置 AI 模型。管理员需设置 OPENAI_API_KEY（及 OPENAI_MODELS）、ANTHROPIC_API_KEY、GOOGLE_GENERATIVE_AI_API_KEY，运行 Ollama，或在管理后台添加模型。',
  notEnoughPoints: '积分不足。每日签到可免费领取积分。',
  modelBusy: '模型繁忙，请稍后再试',
  modelMisconfigured: '此模型在服务器上配置有误：服务商拒绝了密钥或不认识该模型。请换一个模型，并告知管理员。',
  contextTooLong: '对话太长，超出了模型的上下文。请新建对话、移除部分附件，或换一个上下文更大的模型。',
  modelTimeout: '模型响应超时，请稍后再试。',
  internalError: '服务器内部出错，请稍后再试；如果一直出现，请告知管理员（请求 {{requestId}}）。',
  badUrl: '地址无效：其中的百分号编码（%）不完整。请检查链接后重试。',
  extractionBusy: '服务器正忙于读取其他文档，请一分钟后再试。',
  nulCharacter: '请求中含有 NUL 字符（\\u0000），文本不能包含它。请删除后重试。',
  messageRequired: '消息不能为空。',
  inputMessageRequired: '请输入消息。',
  urlRequired: '请输入网页地址。',
  urlInvalid: '请输入以 http:// 或 https:// 开头的网址。',
  pageAddressBlocked: '无法读取此地址：只能读取公开的网页。',
  pagePortBlocked: '只能读取标准端口（80 和 443）上的网页。',
  pageTooManyRedirects: '该网页重定向次数过多，无法读取。',
  pageTimeout: '网页响应超时，请稍后再试。',
  pageTooLarge: '网页过大，无法读取。',
  pageUnsupported: '只能通过地址读取网页（HTML）。',
  pageHttpStatus: '网站返回了错误，无法读取该网页。',
  pageFetchFailed: '无法访问该网页，请检查地址后重试。',
  pageEmpty: '该网页上没有找到可读的文字。',
  pageUnreadable: '该网页的结构无法读取（标记过大或嵌套过深）。',
  webSearchNotConfigured:
    '此服务器尚未设置联网搜索。管理员需设置 SEARXNG_URL、TAVILY_API_KEY 或 BRAVE_SEARCH_API_KEY。关闭联网搜索即可发送此消息。',
  modelNoWebSearch: '{{model}} 不支持联网搜索。请选择支持联网搜索的模型，或关闭联网搜索。',
  webSearchFailed: '联网搜索失败，请稍后再试，或关闭联网搜索。',
  imagesNotConfigured: '此服务器尚未设置图片生成。管理员需设置 IMAGES_BASE_URL 和 IMAGES_API_KEY。',
  imageFailed: '图片生成失败，请稍后再试，或修改描述。',
  pluginNotFound: '你开启的某个插件不存在或已被关闭。请关闭它后重新发送。',
  pluginNotConfigured: '此服务器尚未设置 {{plugin}} 插件。请关闭它后重新发送。',
  uploadFileMissing: '没有收到文件，请选择要上传的文件。',
  uploadFileTypeError: '无法添加文件 {{name}}：不支持该文件类型。请选择以下类型的文件：{{types}}。',
  fileSizeExceed: '文件超过 {{max}} MB，请选择更小的文件。',
  attachmentCountExceed: '附件过多：一次最多 {{max}} 个。请移除一些后重试。',
  uploadMediaFail: '文件保存失败，请稍后再试。',
  fileContentMismatch: '{{name}} 的内容不是有效的 {{type}} 文件，请以正确的格式保存后重试。',
  fileTextInvalid: '文件 {{name}} 不是 UTF-8 编码的纯文本，请另存为 UTF-8 文本后重试。',
  fileUnreadable: '无法读取文件 {{name}}，它可能已损坏或受密码保护。',
  fileNoText: '{{name}} 中没有找到文字。扫描版 PDF 只包含文字的图片：请保存为带识别文字（OCR）的版本，或将页面作为图片添加。',
  fileTooComplex: '文件 {{name}} 内容过多，无法读取（页数过多或解压后过大）。请拆分成较小的文件。',
  imageTooLarge: '图片 {{name}} 的像素过多，无法读取。请使用较小的图片。',
  mediaGone: '此消息的某个附件已不再保存。请移除后重新添加再发送。',
  remoteImageBlocked: '无法加载此图片：只显示公开网址（端口 80 和 443）上的图片。',
  remoteImageUnsupported: '此地址不是可以显示的图片（PNG、JPEG、GIF、WebP、AVIF、BMP 或 ICO）。',
  remoteImageTooLarge: '图片超过 {{max}} MB，因此不显示。',
  remoteImageUnreachable: '无法从其网站加载此图片，请稍后再试。',
};

const catalogues: Record<Language, Record<string, string>> = { en, zh };
export type MessageKey = Key;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

export function t(lang: Language, key: MessageKey, params?: Record<string, string | number>): string {
  const template = catalogues[lang][key] ?? en[key];
  return params ? template.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p] ?? '')) : template;
}

/** Chinese when accept-language names any zh variant, else English (as the client detects it). */
export function languageOf(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  return typeof header === 'string' && /zh/i.test(header) ? 'zh' : 'en';
}

/** zod's own translations for validation messages that a schema does not set itself. */
export const zodLocale: Record<Language, z.core.$ZodErrorMap> = {
  en: z.locales.en().localeError,
  zh: z.locales.zhCN().localeError,
};
