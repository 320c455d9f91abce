import type { FastifyInstance } from 'fastify';
import {
  AddFavouriteBodySchema,
  DeleteFavouriteBodySchema,
  FavouriteIdQuerySchema,
  FavouriteItemSchema,
  FavouriteListQuerySchema,
  FavouritePageSchema,
  IsSavedBodySchema,
  IsSavedResultSchema,
  MAX_FAVOURITE_ANSWER_CHARS,
  UpdateFavouriteBodySchema,
} from '../../shared/contracts/favourites.ts';
import { addRoute } from '../http/route.ts';
import { addFavourite, deleteFavourite, getFavourite, listFavourites, savedAmong, updateFavourite } from '../services/favourites/favourites.ts';

/** An edited answer of the largest size, in UTF-8 (up to 4 bytes a character), with room for the rest of the body. */
const UPDATE_BODY_LIMIT = MAX_FAVOURITE_ANSWER_CHARS * 4 + 256 * 1024;

/**
 * The caller's favourite answers (docs/api.md#favourite-answers-save): /api/Save/*. Each is a copy of
 * a chat answer; another user's favourite or message answers 10404 as if absent.
 */
export function registerFavouriteRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/Save/Add',
    auth: 'user',
    summary: "Saves a copy of the answer of one of the caller's chat messages (with its question, model and time); saving the same message again answers the favourite already made",
    body: AddFavouriteBodySchema,
    data: FavouriteItemSchema,
    handler: ({ ctx, user, body }) => addFavourite(ctx.db, user.id, body.chatMessageId),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Save/GetList',
    auth: 'user',
    summary: "The caller's favourites, newest saved first, with a preview of each answer; q finds text in the question or the answer (case-insensitive)",
    query: FavouriteListQuerySchema,
    data: FavouritePageSchema,
    handler: ({ ctx, user, query }) => listFavourites(ctx.db, user.id, query),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Save/GetById',
    auth: 'user',
    summary: 'One of the caller\'s favourites, whole, with whether its source message still exists (sourceExists)',
    query: FavouriteIdQuerySchema,
    data: FavouriteItemSchema,
    handler: ({ ctx, user, query }) => getFavourite(ctx.db, user.id, query.favouriteId),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Save/Update',
    auth: 'user',
    summary: 'Replaces the saved copy of an answer (Markdown, and optionally its question); the chat it came from is not changed',
    body: UpdateFavouriteBodySchema,
    data: FavouriteItemSchema,
    bodyLimit: UPDATE_BODY_LIMIT,
    handler: ({ ctx, user, body }) => updateFavourite(ctx.db, user.id, body),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Save/IsSaved',
    auth: 'user',
    summary: 'Which of the listed chat messages (up to 200) the caller saved, each with its favourite',
    body: IsSavedBodySchema,
    data: IsSavedResultSchema,
    handler: ({ ctx, user, body }) => savedAmong(ctx.db, user.id, body.chatMessageIds),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Save/Delete',
    auth: 'user',
    summary: "Deletes one of the caller's favourites (the chat it came from is not changed)",
    body: DeleteFavouriteBodySchema,
    handler: async ({ ctx, user, body }) => {
      await deleteFavourite(ctx.db, user.id, body.favouriteId);
      return null;
    },
  });
}
