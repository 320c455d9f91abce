import { z } from 'zod';
import { IdSchema, LanguageSchema, PageQuerySchema, pagedSchema } from './common.ts';
import { PromptTagIdsSchema, PromptTagRefSchema } from './prompt-tag.ts';

/**
 * Quick functions (prompt tools) and custom prompts (the QuickFunction and AiPrompWord route families).
 * A custom prompt IS a user quick function. Two kinds of item share one shape:
 * - built-ins, managed by operators (texts in en and zh; the caller gets its language's);
 * - the user's own (`userQuickFunctionId` set, equal to `quickFunctionId`).
 * A group (`isGroup`) has no template: it only holds children (e.g. "Translate to…").
 *
 * Routes (every answer is the usual { Code, Msg, Data } envelope):
 * - GET  /api/QuickFunction/GetQuickFunctionListAll2            → QuickFunctionNode[]  (menu tree, online items only:
 *        built-ins in the caller's language, then the caller's own; signed-out callers get the built-ins. Cached.)
 * - GET  /api/QuickFunction/GetUserQuickFunctionList            → UserQuickFunction[]  (own, flat, hidden ones too; login)
 * - POST /api/QuickFunction/SaveUserQuickFunction   SaveUserQuickFunctionBody → UserQuickFunction (create when no id)
 * - POST /api/QuickFunction/DeleteUserQuickFunction UserQuickFunctionIdBody   → null (its children move to the root)
 * - POST /api/QuickFunction/OnlineUserQuickFunction OnlineUserQuickFunctionBody → null (show or hide in list)
 * - POST /api/QuickFunction/SortUserQuickFunction   SortUserQuickFunctionBody  → null (ids in their new order)
 * - POST /api/QuickFunction/GroupUserQuickFunction  GroupUserQuickFunctionBody → null (set parent; null: root)
 * - GET  /api/QuickFunction/ExportUserQuickFunction             → QuickFunctionExport (JSON file content)
 * - POST /api/QuickFunction/ImportUserQuickFunction QuickFunctionExport → { imported } (adds, never replaces)
 * - GET  /api/AiPrompWord/GetAiPrompWordByRecomment ?language=&tagId= → RecommendedPrompt[] (public; also answered at
 *        /api/Chat/GetAiPrompWordByRecomment; tags: shared/contracts/prompt-tag.ts)
 * Admin (role admin, 10403 otherwise):
 * - GET  /api/admin/QuickFunction/GetList → AdminQuickFunction[]; POST Save (AdminSaveQuickFunctionBody → AdminQuickFunction),
 *        Delete ({ quickFunctionId }), Online ({ quickFunctionId, online }), Sort ({ ids })
 * - GET  /api/admin/AiPrompWord/GetList ?page&count&language → paged AdminRecommendedPrompt; GET GetById ?aiPrompWordId;
 *        POST Save (AdminSaveRecommendedPromptBody → AdminRecommendedPrompt), Delete ({ aiPrompWordId })
 * Bad input answers 10400 with the prompt form's messages (promptNameRequired, promptContentRequired, promptAppliesToRequired);
 * another user's id answers 10404 as if absent; signed out 10402.
 *
 * Using one in chat: AddMessage (shared/contracts/chat.ts) takes `quickFunctionId` and/or `selection`.
 */

export const QUICK_FUNCTION_PLACEHOLDERS = ['{selection}', '{page}', '{language}', '{input}'] as const;
export const MAX_QF_NAME_CHARS = 60;
export const MAX_QF_DESCRIPTION_CHARS = 300;
export const MAX_QF_TEMPLATE_CHARS = 8000;
export const MAX_QF_ICON_CHARS = 32;
/** How many own quick functions a user may keep (save and import both refuse beyond it). */
export const MAX_USER_QUICK_FUNCTIONS = 200;
export const MAX_SELECTION_CHARS = 32_000;

/** Prompt categories: a writing style, or scoped to a domain. */
export const QuickFunctionCategorySchema = z.enum(['style', 'scoped']);
export type QuickFunctionCategory = z.infer<typeof QuickFunctionCategorySchema>;

/** What a tool works on: selected text, the whole page, or what the user types. */
export const AppliesToSchema = z.enum(['selection', 'page', 'input']);
export type AppliesTo = z.infer<typeof AppliesToSchema>;

export const QuickFunctionItemSchema = z.object({
  quickFunctionId: z.string(),
  /** Set (same value as quickFunctionId) for the user's own; null for built-ins. */
  userQuickFunctionId: z.string().nullable(),
  parentId: z.string().nullable(),
  name: z.string(),
  /** A short emoji or icon name; '' for none. */
  icon: z.string(),
  description: z.string(),
  /** Text with the placeholders {selection}, {page}, {language}, {input}; '' for a group. */
  template: z.string(),
  category: QuickFunctionCategorySchema,
  appliesTo: z.array(AppliesToSchema).min(1),
  /** The preferred model (the client may send it as aiModelId; the server checks access as for any model). */
  aiModelId: z.string().nullable(),
  /** Shown in the selection toolbar. */
  pinned: z.boolean(),
  /** Shown at all ("show or hide in list"). */
  online: z.boolean(),
  sort: z.number().int(),
  isGroup: z.boolean(),
});
export type QuickFunctionItem = z.infer<typeof QuickFunctionItemSchema>;

/** Menus nest at most this deep (a root, a group, a tool in it): saving deeper is refused (promptGroupInvalid). */
export const MAX_QF_DEPTH = 3;

export type QuickFunctionNode = QuickFunctionItem & { children: QuickFunctionNode[] };
// Spelled out to MAX_QF_DEPTH levels rather than recursive, so the API reference has no cycle.
const LeafNodeSchema = QuickFunctionItemSchema.extend({ children: z.array(z.never()).max(0) });
const MiddleNodeSchema = QuickFunctionItemSchema.extend({ children: z.array(LeafNodeSchema) });
export const QuickFunctionNodeSchema: z.ZodType<QuickFunctionNode> = QuickFunctionItemSchema.extend({ children: z.array(MiddleNodeSchema) });
export const QuickFunctionTreeSchema = z.array(QuickFunctionNodeSchema);

/** The user's own, as the settings screen (/prompt_setting) lists them. */
export const UserQuickFunctionSchema = QuickFunctionItemSchema.extend({
  userQuickFunctionId: z.string(),
  updateTime: z.string(),
  /** The operator's tags (TagPrompt) the user gave it, in the tags' order. */
  tagIds: z.array(z.string()),
});
export type UserQuickFunction = z.infer<typeof UserQuickFunctionSchema>;
export const UserQuickFunctionListSchema = z.array(UserQuickFunctionSchema);

/** An absent field reads as empty, so a missing name or applies-to gets its own message, not "expected string". */
const absentAs = <T extends z.ZodType>(empty: unknown, schema: T) => z.preprocess((v) => v ?? empty, schema);
const nameField = absentAs('', z.string().trim().min(1, 'promptNameRequired').max(MAX_QF_NAME_CHARS));
const appliesToField = absentAs(
  [],
  z
    .array(AppliesToSchema)
    .min(1, 'promptAppliesToRequired')
    .max(3)
    .transform((v) => [...new Set(v)]),
);

/** What a built-in and an own item share: where and when it shows, and which model runs it. */
const placementFields = {
  category: QuickFunctionCategorySchema.default('scoped'),
  appliesTo: appliesToField,
  aiModelId: IdSchema.nullish().transform((v) => v ?? null),
  pinned: z.boolean().default(false),
  online: z.boolean().default(true),
};

/** The editable fields of an own quick function (the Prompt form: name, content, applies-to, description, show/hide). */
export const UserQuickFunctionFieldsSchema = z.object({
  parentId: IdSchema.nullish().transform((v) => v ?? null),
  name: nameField,
  icon: z.string().trim().max(MAX_QF_ICON_CHARS).default(''),
  description: z.string().trim().max(MAX_QF_DESCRIPTION_CHARS).default(''),
  template: z.string().trim().max(MAX_QF_TEMPLATE_CHARS).default(''),
  ...placementFields,
  isGroup: z.boolean().default(false),
});

/** A tool (not a group) needs its content. */
const contentRequired = <T extends { isGroup: boolean; template: string }>(v: T, ctx: z.RefinementCtx) => {
  if (!v.isGroup && !v.template) ctx.addIssue({ code: 'custom', path: ['template'], message: 'promptContentRequired' });
};

export const SaveUserQuickFunctionBodySchema = UserQuickFunctionFieldsSchema.extend({
  /** Absent: create. */
  userQuickFunctionId: IdSchema.nullish(),
  /** The tags it carries (replacing what it had); absent: unchanged (none for a new one). */
  tagIds: PromptTagIdsSchema.optional(),
}).superRefine(contentRequired);
export type SaveUserQuickFunctionBody = z.infer<typeof SaveUserQuickFunctionBodySchema>;

export const UserQuickFunctionIdBodySchema = z.object({ userQuickFunctionId: IdSchema });
export const OnlineUserQuickFunctionBodySchema = z.object({ userQuickFunctionId: IdSchema, online: z.boolean() });
export const SortUserQuickFunctionBodySchema = z.object({ ids: z.array(IdSchema).min(1).max(MAX_USER_QUICK_FUNCTIONS) });
export const GroupUserQuickFunctionBodySchema = z.object({ userQuickFunctionId: IdSchema, parentId: IdSchema.nullable() });

/**
 * Export / import of own prompts as a JSON file. `key` is a file-local id used only to keep the grouping
 * (parentKey refers to another item's key); the server gives imported items new ids.
 */
export const QuickFunctionExportItemSchema = z.object({
  key: z.string().trim().min(1).max(64),
  parentKey: z.string().trim().min(1).max(64).nullish().transform((v) => v ?? null),
  name: nameField,
  icon: z.string().trim().max(MAX_QF_ICON_CHARS).default(''),
  description: z.string().trim().max(MAX_QF_DESCRIPTION_CHARS).default(''),
  template: z.string().trim().max(MAX_QF_TEMPLATE_CHARS).default(''),
  category: QuickFunctionCategorySchema.default('scoped'),
  appliesTo: appliesToField,
  pinned: z.boolean().default(false),
  online: z.boolean().default(true),
  isGroup: z.boolean().default(false),
}).superRefine(contentRequired);
export const QuickFunctionExportSchema = z.object({
  version: z.literal(1),
  items: z.array(QuickFunctionExportItemSchema).max(MAX_USER_QUICK_FUNCTIONS, 'promptImportTooMany'),
});
export type QuickFunctionExport = z.infer<typeof QuickFunctionExportSchema>;
export const QuickFunctionImportResultSchema = z.object({ imported: z.number().int() });

// ---- recommended prompts (AiPrompWord) ----

export const RecommendedPromptQuerySchema = z.object({
  language: LanguageSchema.optional(),
  /** Only the prompts carrying this tag (an unknown tag: none). */
  tagId: IdSchema.optional(),
});
export const RecommendedPromptSchema = z.object({
  aiPrompWordId: z.string(),
  title: z.string(),
  content: z.string(),
  category: QuickFunctionCategorySchema,
  icon: z.string(),
  sort: z.number().int(),
  /** Its tags, named in the prompt's language, in the tags' order. */
  tags: z.array(PromptTagRefSchema),
});
export type RecommendedPrompt = z.infer<typeof RecommendedPromptSchema>;
export const RecommendedPromptListSchema = z.array(RecommendedPromptSchema);

// ---- admin ----

/** A built-in as operators see it: both languages, offline ones included. */
export const AdminQuickFunctionSchema = z.object({
  quickFunctionId: z.string(),
  parentId: z.string().nullable(),
  nameEn: z.string(),
  nameZh: z.string(),
  descriptionEn: z.string(),
  descriptionZh: z.string(),
  templateEn: z.string(),
  templateZh: z.string(),
  icon: z.string(),
  category: QuickFunctionCategorySchema,
  appliesTo: z.array(AppliesToSchema),
  aiModelId: z.string().nullable(),
  pinned: z.boolean(),
  online: z.boolean(),
  sort: z.number().int(),
  isGroup: z.boolean(),
  updateTime: z.string(),
});
export type AdminQuickFunction = z.infer<typeof AdminQuickFunctionSchema>;
export const AdminQuickFunctionListSchema = z.array(AdminQuickFunctionSchema);

export const AdminSaveQuickFunctionBodySchema = z
  .object({
    /** Absent: create. */
    quickFunctionId: IdSchema.nullish(),
    parentId: IdSchema.nullish().transform((v) => v ?? null),
    nameEn: nameField,
    nameZh: nameField,
    descriptionEn: z.string().trim().max(MAX_QF_DESCRIPTION_CHARS).default(''),
    descriptionZh: z.string().trim().max(MAX_QF_DESCRIPTION_CHARS).default(''),
    templateEn: z.string().trim().max(MAX_QF_TEMPLATE_CHARS).default(''),
    templateZh: z.string().trim().max(MAX_QF_TEMPLATE_CHARS).default(''),
    icon: z.string().trim().max(MAX_QF_ICON_CHARS).default(''),
    ...placementFields,
    sort: z.number().int().min(0).max(1_000_000).optional(),
    isGroup: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.isGroup) return;
    if (!v.templateEn) ctx.addIssue({ code: 'custom', path: ['templateEn'], message: 'promptContentRequired' });
    if (!v.templateZh) ctx.addIssue({ code: 'custom', path: ['templateZh'], message: 'promptContentRequired' });
  });
export type AdminSaveQuickFunctionBody = z.infer<typeof AdminSaveQuickFunctionBodySchema>;
export const AdminQuickFunctionIdBodySchema = z.object({ quickFunctionId: IdSchema });
export const AdminOnlineQuickFunctionBodySchema = z.object({ quickFunctionId: IdSchema, online: z.boolean() });
export const AdminSortQuickFunctionBodySchema = z.object({ ids: z.array(IdSchema).min(1).max(1000) });

export const AdminRecommendedPromptSchema = RecommendedPromptSchema.extend({
  language: LanguageSchema,
  online: z.boolean(),
  updateTime: z.string(),
});
export type AdminRecommendedPrompt = z.infer<typeof AdminRecommendedPromptSchema>;
export const AdminRecommendedPromptPageSchema = pagedSchema(AdminRecommendedPromptSchema);
export const AdminRecommendedPromptListQuerySchema = PageQuerySchema.extend({ language: LanguageSchema.optional() });
export const AdminRecommendedPromptIdQuerySchema = z.object({ aiPrompWordId: IdSchema });
export const AdminRecommendedPromptIdBodySchema = z.object({ aiPrompWordId: IdSchema });
export const AdminSaveRecommendedPromptBodySchema = z.object({
  aiPrompWordId: IdSchema.nullish(),
  language: LanguageSchema,
  title: nameField,
  content: absentAs('', z.string().trim().min(1, 'promptContentRequired').max(MAX_QF_TEMPLATE_CHARS)),
  category: QuickFunctionCategorySchema.default('scoped'),
  icon: z.string().trim().max(MAX_QF_ICON_CHARS).default(''),
  online: z.boolean().default(true),
  sort: z.number().int().min(0).max(1_000_000).default(0),
  /** The tags it carries (replacing what it had); absent: unchanged (none for a new one). */
  tagIds: PromptTagIdsSchema.optional(),
});
export type AdminSaveRecommendedPromptBody = z.infer<typeof AdminSaveRecommendedPromptBodySchema>;

// ---- chat ----

/** Text the user selected on a page (an attachment of kind "text" whose source is the page). */
export const ChatSelectionSchema = z.object({
  text: z.string().min(1).max(MAX_SELECTION_CHARS),
  title: z.string().trim().max(500).nullish().transform((v) => v ?? ''),
  url: z.string().trim().max(2000).nullish().transform((v) => v ?? ''),
});
export type ChatSelection = z.infer<typeof ChatSelectionSchema>;

/** What a sent message shows of the tool used (null when none). */
export const MessageQuickFunctionSchema = z.object({ quickFunctionId: z.string(), name: z.string(), icon: z.string() });
export type MessageQuickFunction = z.infer<typeof MessageQuickFunctionSchema>;
/**
 * What a sent message shows of the attached text: the page selection, or an earlier answer attached
 * to it (`chatMessageId`: the attachment kind "chat message", shared/contracts/attachments.ts).
 */
export const MessageSelectionSchema = z.object({ text: z.string(), title: z.string(), url: z.string(), chatMessageId: z.string().optional() });
export type MessageSelection = z.infer<typeof MessageSelectionSchema>;
