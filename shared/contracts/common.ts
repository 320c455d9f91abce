import { z } from 'zod';

/** Query strings arrive as text: these coerce and bound the usual paging parameters. */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  count: z.coerce.number().int().min(1).max(100).default(20),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

export const IdSchema = z.string().trim().min(1).max(64);

export const pagedSchema = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), total: z.number().int() });
export type Paged<T> = { list: T[]; total: number };

export const LanguageSchema = z.enum(['en', 'zh']);
export type Language = z.infer<typeof LanguageSchema>;
