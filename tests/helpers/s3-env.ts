/** The settings that store files in the bucket of an S3 test server (the fake or s3rver), path-style. */
export function s3Env(s3: { bucket: string; endpoint: string; accessKeyId: string; secretAccessKey: string }, region: string): Record<string, string> {
  return {
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}
