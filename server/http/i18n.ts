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
