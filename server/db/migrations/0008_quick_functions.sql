CREATE TABLE "memories" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"fact" text NOT NULL,
	"source_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personalizations" (
	"user_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"occupation" text DEFAULT '' NOT NULL,
	"traits" text DEFAULT '' NOT NULL,
	"other_info" text DEFAULT '' NOT NULL,
	"answer_language" text,
	"memory_enabled" boolean DEFAULT true NOT NULL,
	"onboarding" text DEFAULT 'pending' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quick_functions" (
	"id" text PRIMARY KEY NOT NULL,
	"parent_id" text,
	"name_en" text NOT NULL,
	"name_zh" text NOT NULL,
	"description_en" text DEFAULT '' NOT NULL,
	"description_zh" text DEFAULT '' NOT NULL,
	"template_en" text DEFAULT '' NOT NULL,
	"template_zh" text DEFAULT '' NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"category" text DEFAULT 'scoped' NOT NULL,
	"applies_to" jsonb DEFAULT '["selection"]'::jsonb NOT NULL,
	"ai_model_id" text,
	"pinned" boolean DEFAULT false NOT NULL,
	"online" boolean DEFAULT true NOT NULL,
	"is_group" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recommended_prompts" (
	"id" text PRIMARY KEY NOT NULL,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"category" text DEFAULT 'scoped' NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"online" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_quick_functions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"parent_id" text,
	"name" text NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"template" text DEFAULT '' NOT NULL,
	"category" text DEFAULT 'scoped' NOT NULL,
	"applies_to" jsonb DEFAULT '["selection"]'::jsonb NOT NULL,
	"ai_model_id" text,
	"pinned" boolean DEFAULT false NOT NULL,
	"online" boolean DEFAULT true NOT NULL,
	"is_group" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "quick_function" jsonb;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "selection" jsonb;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "prompt_text" text;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_source_message_id_chat_messages_id_fk" FOREIGN KEY ("source_message_id") REFERENCES "public"."chat_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personalizations" ADD CONSTRAINT "personalizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_quick_functions" ADD CONSTRAINT "user_quick_functions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memories_user_created_idx" ON "memories" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "recommended_prompts_language_idx" ON "recommended_prompts" USING btree ("language","sort");--> statement-breakpoint
CREATE INDEX "user_quick_functions_user_idx" ON "user_quick_functions" USING btree ("user_id","sort");
--> statement-breakpoint
-- The first built-in quick functions (operators change them through /api/admin/QuickFunction/*).
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-explain', NULL, 'Explain', '解释', 'Explain the text in plain words.', '用通俗的语言解释这段文字。', 'Explain {selection} in plain words, as to a curious newcomer: what it means and why it matters. Answer in {language}.', '用通俗易懂的语言解释{selection}：它是什么意思，为什么重要。请用{language}回答。', '💡', 'scoped', '["selection", "input"]'::jsonb, true, false, 10) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-summarize', NULL, 'Summarize', '总结', 'Sum the text up in a few sentences.', '用几句话概括这段文字。', 'Summarize {selection} in a few sentences, keeping the key facts, names and numbers. Answer in {language}.', '用几句话总结{selection}，保留关键事实、名称和数字。请用{language}回答。', '📝', 'scoped', '["selection", "input"]'::jsonb, true, false, 20) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-translate', NULL, 'Translate to…', '翻译为…', 'Translate the text into another language.', '把这段文字翻译成另一种语言。', '', '', '🌐', 'scoped', '["selection", "input"]'::jsonb, true, true, 30) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-translate-en', 'qf-translate', 'English', '英文', 'Translate into English.', '翻译成英文。', 'Translate {selection} into English. Keep the meaning, tone and formatting (lists, code, links). Answer with the translation only.', '把{selection}翻译成英文。保留原意、语气和格式（列表、代码、链接），只回答译文。', '', 'scoped', '["selection", "input"]'::jsonb, false, false, 10) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-translate-zh', 'qf-translate', 'Chinese (Simplified)', '简体中文', 'Translate into Chinese (Simplified).', '翻译成简体中文。', 'Translate {selection} into Simplified Chinese. Keep the meaning, tone and formatting (lists, code, links). Answer with the translation only.', '把{selection}翻译成简体中文。保留原意、语气和格式（列表、代码、链接），只回答译文。', '', 'scoped', '["selection", "input"]'::jsonb, false, false, 20) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-translate-ja', 'qf-translate', 'Japanese', '日语', 'Translate into Japanese.', '翻译成日语。', 'Translate {selection} into Japanese. Keep the meaning, tone and formatting (lists, code, links). Answer with the translation only.', '把{selection}翻译成日语。保留原意、语气和格式（列表、代码、链接），只回答译文。', '', 'scoped', '["selection", "input"]'::jsonb, false, false, 30) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-translate-es', 'qf-translate', 'Spanish', '西班牙语', 'Translate into Spanish.', '翻译成西班牙语。', 'Translate {selection} into Spanish. Keep the meaning, tone and formatting (lists, code, links). Answer with the translation only.', '把{selection}翻译成西班牙语。保留原意、语气和格式（列表、代码、链接），只回答译文。', '', 'scoped', '["selection", "input"]'::jsonb, false, false, 40) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-translate-fr', 'qf-translate', 'French', '法语', 'Translate into French.', '翻译成法语。', 'Translate {selection} into French. Keep the meaning, tone and formatting (lists, code, links). Answer with the translation only.', '把{selection}翻译成法语。保留原意、语气和格式（列表、代码、链接），只回答译文。', '', 'scoped', '["selection", "input"]'::jsonb, false, false, 50) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-translate-de', 'qf-translate', 'German', '德语', 'Translate into German.', '翻译成德语。', 'Translate {selection} into German. Keep the meaning, tone and formatting (lists, code, links). Answer with the translation only.', '把{selection}翻译成德语。保留原意、语气和格式（列表、代码、链接），只回答译文。', '', 'scoped', '["selection", "input"]'::jsonb, false, false, 60) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-improve', NULL, 'Improve writing', '改进写作', 'Make the text clearer and more natural.', '让文字更清晰、更自然。', 'Rewrite {selection} so that it reads clearly and naturally, keeping its meaning and its language. Answer with the improved text only.', '改写{selection}，使其更清晰、更自然，保留原意和原文的语言。只回答改写后的文字。', '✨', 'style', '["selection", "input"]'::jsonb, true, false, 40) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-grammar', NULL, 'Fix spelling and grammar', '修正拼写和语法', 'Correct mistakes, change nothing else.', '只改正错误，不改动其他内容。', 'Correct the spelling, grammar and punctuation of {selection}, changing nothing else and keeping its language. Answer with the corrected text only.', '改正{selection}中的拼写、语法和标点错误，不改动其他内容，保留原文的语言。只回答改正后的文字。', '✅', 'style', '["selection", "input"]'::jsonb, true, false, 50) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-shorter', NULL, 'Make shorter', '缩短', 'Say the same in fewer words.', '用更少的字表达同样的意思。', 'Rewrite {selection} to about half its length, keeping the essential points and its language. Answer with the shorter text only.', '把{selection}缩短到大约一半长度，保留要点和原文的语言。只回答缩短后的文字。', '➖', 'style', '["selection", "input"]'::jsonb, false, false, 60) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-longer', NULL, 'Make longer', '扩写', 'Develop the text with more detail.', '补充更多细节来扩展文字。', 'Expand {selection} with relevant detail and examples, keeping its tone and its language. Answer with the longer text only.', '为{selection}补充相关的细节和例子进行扩写，保留原文的语气和语言。只回答扩写后的文字。', '➕', 'style', '["selection", "input"]'::jsonb, false, false, 70) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-reply', NULL, 'Reply to this', '回复', 'Draft a reply to a message or e-mail.', '为一条消息或邮件起草回复。', 'Draft a polite, helpful reply to the message in {selection}, in the same language as the message. Answer with the reply only.', '为{selection}中的消息起草一封礼貌、得体的回复，使用与该消息相同的语言。只回答回复内容。', '💬', 'scoped', '["selection"]'::jsonb, false, false, 80) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-explain-code', NULL, 'Explain code', '解释代码', 'Walk through what a piece of code does.', '逐步说明一段代码的作用。', 'Explain what the code in {selection} does, step by step, and point out anything surprising or risky. Answer in {language}.', '逐步解释{selection}中的代码做了什么，并指出其中出人意料或有风险的地方。请用{language}回答。', '🧑‍💻', 'scoped', '["selection", "input"]'::jsonb, false, false, 90) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-page-summary', NULL, 'Summarize this page', '总结此页面', 'A short summary of the whole page.', '整个页面的简短总结。', 'Summarize {page}: first one sentence on what it is about, then the main points as a short list. Answer in {language}.', '总结{page}：先用一句话说明它讲了什么，再用简短的列表列出要点。请用{language}回答。', '📄', 'scoped', '["page"]'::jsonb, false, false, 100) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "quick_functions" ("id","parent_id","name_en","name_zh","description_en","description_zh","template_en","template_zh","icon","category","applies_to","pinned","is_group","sort") VALUES ('qf-page-key-points', NULL, 'Key points', '要点', 'The key points and takeaways of the page.', '页面的要点和结论。', 'List the key points and takeaways of {page} as a short bulleted list, most important first. Answer in {language}.', '用简短的项目列表列出{page}的要点和结论，最重要的放在前面。请用{language}回答。', '🔑', 'scoped', '["page"]'::jsonb, false, false, 110) ON CONFLICT DO NOTHING;--> statement-breakpoint
-- The first recommended prompts (AiPrompWord), managed through /api/admin/AiPrompWord/*.
INSERT INTO "recommended_prompts" ("id","language","title","content","category","icon","sort") VALUES ('rp-en-1', 'en', 'Professional e-mail', 'Write a short, professional e-mail about the following, with a clear subject line: ', 'style', '✉️', 10) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "recommended_prompts" ("id","language","title","content","category","icon","sort") VALUES ('rp-en-2', 'en', 'Brainstorm ideas', 'Give me ten varied, concrete ideas for the following, one line each: ', 'scoped', '🧠', 20) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "recommended_prompts" ("id","language","title","content","category","icon","sort") VALUES ('rp-en-3', 'en', 'Explain like I am five', 'Explain the following as if I were five years old, with a simple everyday example: ', 'style', '🧸', 30) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "recommended_prompts" ("id","language","title","content","category","icon","sort") VALUES ('rp-en-4', 'en', 'Review my code', 'Review the following code for bugs, readability and security, and suggest concrete fixes: ', 'scoped', '🔍', 40) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "recommended_prompts" ("id","language","title","content","category","icon","sort") VALUES ('rp-zh-1', 'zh', '职业邮件', '请就以下内容写一封简短、专业的邮件，并附上清晰的主题：', 'style', '✉️', 10) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "recommended_prompts" ("id","language","title","content","category","icon","sort") VALUES ('rp-zh-2', 'zh', '头脑风暴', '请针对以下内容给出十个多样、具体的点子，每条一行：', 'scoped', '🧠', 20) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "recommended_prompts" ("id","language","title","content","category","icon","sort") VALUES ('rp-zh-3', 'zh', '像给五岁孩子讲解', '请像给五岁孩子讲解一样解释以下内容，并举一个简单的生活例子：', 'style', '🧸', 30) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "recommended_prompts" ("id","language","title","content","category","icon","sort") VALUES ('rp-zh-4', 'zh', '代码审查', '请审查以下代码的缺陷、可读性和安全性，并给出具体的修改建议：', 'scoped', '🔍', 40) ON CONFLICT DO NOTHING;
