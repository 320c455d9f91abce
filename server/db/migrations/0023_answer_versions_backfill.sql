-- Answer versions (docs/api.md#answer-versions): the chats made before them become straight lines.
-- Each exchange's parent is the one before it in its chat (by created_at, then id), and the chat
-- shows its newest exchange's path. Only chats without a current exchange are touched, so running
-- this again changes nothing of a chat that has versions.
UPDATE "chat_messages" m SET "parent_id" = p."previous_id"
FROM (
  SELECT e."id", lag(e."id") OVER (PARTITION BY e."session_id" ORDER BY e."created_at", e."id") AS "previous_id"
  FROM "chat_messages" e
  JOIN "chat_sessions" s ON s."id" = e."session_id"
  WHERE s."current_leaf_id" IS NULL
) p
WHERE m."id" = p."id" AND m."parent_id" IS NULL AND p."previous_id" IS NOT NULL;
--> statement-breakpoint
UPDATE "chat_sessions" s SET "current_leaf_id" = (
  SELECT e."id" FROM "chat_messages" e WHERE e."session_id" = s."id" ORDER BY e."created_at" DESC, e."id" DESC LIMIT 1
)
WHERE s."current_leaf_id" IS NULL AND EXISTS (SELECT 1 FROM "chat_messages" e WHERE e."session_id" = s."id");
