/**
 * The public key in the extension's manifest. It fixes the extension id of unpacked builds (so the
 * server can allow its origin, and end-to-end tests know it) whatever folder the build is loaded from.
 * The store listing assigns its own id; add that id to EXTENSION_IDS on the server.
 */
export const EXTENSION_MANIFEST_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApjqw/S15HBqxKo9XYZ8GSpxmoJMxPEvKF3AeqC2LMNR4YJ8Y6DTaasSrXtZitOL6MrIGGAt0+/u0WMGErxsR9TTSxstcf+tTr26+Gpbr8m1EGFnOfKJEXE3u/TFZ2XelPTDpoWPfj0iy/Uy6AwmgGJ6qrDOEXodNwz2d2BJsPf4q298JYcGJ7GyPkWwtKA0uCEP1IKi3J6MTWRhKgNK2K+/47qGnD2cO5SF4f547JID4IdFMuRc7tz6LZuZV+nINvsMCJjOFaYAsOCrz/rOdQSsjSRqeEPtVlAljvwmx3IIXcXPEPZIzLPKJ+7gmiH6u7m+qTJEwFuX3pXBDNXdY0QIDAQAB';

/** The id Chromium derives from EXTENSION_MANIFEST_KEY. */
export const BUILT_IN_EXTENSION_ID = 'hhnidkcejghlkbldejpjheplacdjkpkf';
