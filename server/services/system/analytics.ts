import { desc, notInArray, sql } from 'drizzle-orm';
import type { AddAnalyticsBody, AnalyticsStatus, BrowserExceptQuery } from '../../../shared/contracts/analytics.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import type { BrowserRecord } from '../../../shared/contracts/tracking.ts';
import type { AppContext } from '../../context.ts';
import { browserRecords } from '../../db/schema/system.ts';
import { pageOf } from '../../db/list-query.ts';
import { analyticsConfigured, sendGa4, type Ga4Event } from '../../providers/analytics.ts';

/**
 * Analytics through the server (docs/api.md#analytics): off unless GA_MEASUREMENT_ID and
 * GA_API_SECRET are set, and then only for users who turned on "Share anonymous usage statistics".
 */

export function analyticsStatus(ctx: AppContext): AnalyticsStatus {
  const enabled = analyticsConfigured(ctx.config);
  return { enabled, measurementId: enabled ? ctx.config.GA_MEASUREMENT_ID! : null };
}

/** GA4 limits: 25 parameters an event, 100 characters a value, names of up to 40 characters. */
const MAX_PARAMS = 25;
const MAX_VALUE = 100;
const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/** The spec's payload as GA4 parameters: the named fields under GA4's names, then the extra fields that fit. */
export function ga4EventOf(body: AddAnalyticsBody): Ga4Event {
  const p = body.payload;
  const params: Record<string, string | number> = { engagement_time_msec: 1 };
  const put = (name: string, value: unknown) => {
    if (Object.keys(params).length >= MAX_PARAMS || !PARAM_NAME.test(name) || name in params) return;
    if (typeof value === 'number' && Number.isFinite(value)) params[name] = value;
    else if (typeof value === 'string' && value.trim()) params[name] = value.slice(0, MAX_VALUE);
  };
  put('page_location', p.current_url);
  put('page_referrer', p.page_referer);
  put('language', p.platform_language);
  if (p.screen_width && p.screen_height) put('screen_resolution', `${p.screen_width}x${p.screen_height}`);
  put('platform_user_agent', p.platform_user_agent);
  const named = new Set(['current_url', 'page_referer', 'platform_language', 'screen_width', 'screen_height', 'platform_user_agent', 'browser_id']);
  for (const [k, v] of Object.entries(p)) if (!named.has(k)) put(k, v);
  return { name: body.event, params };
}

/**
 * Forwards one event when analytics is on and the user consented; otherwise sends nothing. The
 * provider's failure is logged, not passed on: analytics never fails a user's page.
 */
export async function forwardAnalytics(ctx: AppContext, body: AddAnalyticsBody): Promise<{ forwarded: boolean }> {
  if (!analyticsConfigured(ctx.config) || !body.consent) return { forwarded: false };
  const p = body.payload;
  const device: Record<string, string> = {};
  if (p.platform_language) device.language = p.platform_language;
  if (p.screen_width && p.screen_height) device.screen_resolution = `${p.screen_width}x${p.screen_height}`;
  try {
    await sendGa4(ctx.config, { clientId: p.browser_id, events: [ga4EventOf(body)], device });
    return { forwarded: true };
  } catch (err) {
    ctx.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'forwarding an analytics event failed');
    return { forwarded: false };
  }
}

/** Payload keys that carry a client-side error. */
const ERROR_KEYS = ['error', 'errMsg', 'errorMessage', 'ClientResponseErrMsg'];

type ExceptRecord = BrowserRecord & { reasons: ('eventType' | 'error' | 'noIdentity')[] };

/**
 * GetBrowserByExcept, our reading: the browser records that are the exception to the usual ones —
 * of an event type not in `except` (default pageView), with an error in the payload, or with no
 * visitor identity at all (no user, no DriverId, no platformDeviceId). Newest first.
 */
export async function listBrowserExceptions(ctx: AppContext, query: BrowserExceptQuery): Promise<Paged<ExceptRecord>> {
  const usual = query.except
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const r = browserRecords;
  const odd = notInArray(r.eventType, usual);
  const error = sql`${r.payload} ?| array[${sql.join(
    ERROR_KEYS.map((k) => sql`${k}`),
    sql`, `,
  )}]::text[]`;
  const noIdentity = sql`(${r.userId} is null and ${r.driverId} is null and coalesce(${r.payload}->>'platformDeviceId', '') = '')`;
  const { rows, total } = await pageOf(ctx.db, r, sql`(${odd} or ${error} or ${noIdentity})`, [desc(r.createdAt), desc(r.id)], query);
  return {
    list: rows.map((row) => {
      const payload = row.payload as Record<string, unknown>;
      const reasons: ExceptRecord['reasons'] = [];
      if (!usual.includes(row.eventType)) reasons.push('eventType');
      if (ERROR_KEYS.some((k) => k in payload)) reasons.push('error');
      if (!row.userId && !row.driverId && !payload.platformDeviceId) reasons.push('noIdentity');
      return {
        id: row.id,
        eventType: row.eventType,
        payload,
        userId: row.userId,
        driverId: row.driverId,
        ip: row.ip,
        createTime: row.createdAt.toISOString(),
        reasons,
      };
    }),
    total,
  };
}
