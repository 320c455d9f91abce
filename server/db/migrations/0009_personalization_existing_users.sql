-- Accounts made before personalization existed skip the onboarding (it is for new users), and keep
-- what they had typed into the personalization form of their settings document, if anything.
INSERT INTO "personalizations" ("user_id", "occupation", "traits", "other_info", "onboarding")
SELECT u."id",
  CASE WHEN jsonb_typeof(u."settings" #> '{personalization,occupation}') = 'string' THEN left(u."settings" #>> '{personalization,occupation}', 500) ELSE '' END,
  CASE WHEN jsonb_typeof(u."settings" #> '{personalization,traits}') = 'string' THEN left(u."settings" #>> '{personalization,traits}', 500) ELSE '' END,
  CASE WHEN jsonb_typeof(u."settings" #> '{personalization,otherInfo}') = 'string' THEN left(u."settings" #>> '{personalization,otherInfo}', 500) ELSE '' END,
  'skipped'
FROM "users" u
ON CONFLICT ("user_id") DO NOTHING;
