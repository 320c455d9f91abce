import type { FastifyInstance } from 'fastify';
import { pagedSchema, PageQuerySchema } from '../../shared/contracts/common.ts';
import {
  CreateCheckoutSchema,
  RedirectUrlSchema,
  SubscriptionChangeSchema,
  SubscriptionSchema,
  VipOrderIdBodySchema,
  VipOrderIdQuerySchema,
  VipDateTypeListSchema,
  VipLevelListSchema,
  VipOrderSchema,
  VipPackageListQuerySchema,
  VipPackageListSchema,
  WebhookResultSchema,
} from '../../shared/contracts/plans.ts';
import { addRoute, RAW } from '../http/route.ts';
import { t } from '../core/i18n.ts';
import { hideOrder, listOrders, listPublicPackages, orderById } from '../services/plans/plans.ts';
import { createCheckout, createPortalSession, getSubscription, setCancelAtPeriodEnd } from '../services/plans/stripe.ts';
import { receiveStripeWebhook, WebhookRefusal } from '../services/plans/stripe-webhook.ts';
import { listVipDateTypes, listVipLevels } from '../services/plans/plan-levels.ts';

/** Plans, orders and payments for users (docs/economy.md#plans, #payments-stripe, #orders). */
export function registerPlanRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/Vip/GetVipPackageList',
    auth: 'public',
    summary: 'The plans on sale, priced in currency (default usd): the free plan first, then the online packages that have a price in it; checkoutAvailable says whether they can be bought here; country (where the caller is) and paymentMethods (the ways to pay offered there)',
    query: VipPackageListQuerySchema,
    data: VipPackageListSchema,
    handler: ({ ctx, query, req }) => listPublicPackages(ctx, query.currency, req.ip),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Vip/GetVipLevelList',
    auth: 'public',
    summary: "The plan levels, 0 (free) to 3, named in the caller's language",
    data: VipLevelListSchema,
    handler: async ({ lang }) => listVipLevels(lang),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Vip/GetVipDateTypeList',
    auth: 'public',
    summary: "The billing periods a package can be sold for (month, year), with the months each covers, named in the caller's language",
    data: VipDateTypeListSchema,
    handler: async ({ lang }) => listVipDateTypes(lang),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Vip/CreateCheckout',
    auth: 'user',
    summary:
      "Start buying a package: answers the URL of Stripe's checkout page (a subscription, renewed each period). 10461 when payments are not set up; 10409 with a subscription running already. A couponCode is one of our coupons (refused with 10400 and its reason: disabled, not yet or no longer valid, used up, not for this plan, another currency), else a Stripe promotion code (10400 when Stripe does not know it)",
    body: CreateCheckoutSchema,
    data: RedirectUrlSchema,
    rateLimit: { max: 20, timeWindow: 60_000 },
    handler: ({ ctx, user, body }) => createCheckout(ctx, user, body),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Vip/CreatePortalSession',
    auth: 'user',
    summary: "The URL of Stripe's customer portal for the caller (payment methods, invoices, cancelling), which returns to /subscription",
    data: RedirectUrlSchema,
    handler: ({ ctx, user }) => createPortalSession(ctx, user.id),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Vip/GetSubscription',
    auth: 'user',
    summary: "The caller's subscription (the running one, else the latest), or null",
    data: SubscriptionSchema.nullable(),
    handler: ({ ctx, user }) => getSubscription(ctx, user.id),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Vip/CancelSubscription',
    auth: 'user',
    summary: 'Stop renewing: the subscription ends at the end of the paid period (endTime), and the plan runs until then',
    data: SubscriptionChangeSchema,
    handler: ({ ctx, user }) => setCancelAtPeriodEnd(ctx, user.id, true),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Vip/ResumeSubscription',
    auth: 'user',
    summary: 'Undo CancelSubscription while the paid period runs: the subscription renews again',
    data: SubscriptionChangeSchema,
    handler: ({ ctx, user }) => setCancelAtPeriodEnd(ctx, user.id, false),
  });

  registerOrderRoutes(app);
  void app.register(registerWebhookRoute);
}

function registerOrderRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/Vip/GetVipOrderList',
    auth: 'user',
    summary: "The caller's orders (paid periods, redeemed and granted plan days), newest first",
    query: PageQuerySchema,
    data: pagedSchema(VipOrderSchema),
    handler: ({ ctx, user, query }) => listOrders(ctx.db, user.id, query.page, query.count),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Vip/GetVipOrderById',
    auth: 'user',
    summary: "One of the caller's orders; another user's answers 10404",
    query: VipOrderIdQuerySchema,
    data: VipOrderSchema,
    handler: ({ ctx, user, query }) => orderById(ctx.db, user.id, query.vipOrderId),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Vip/DeleteVipOrder',
    auth: 'user',
    summary: "Remove an order from the caller's list; an order that has not ended stays in force",
    body: VipOrderIdBodySchema,
    handler: async ({ ctx, user, body }) => {
      await hideOrder(ctx.db, user.id, body.vipOrderId);
      return null;
    },
  });
}

/**
 * Stripe's webhook. Its own encapsulated plugin: the signature is computed over the exact bytes sent,
 * so this route alone keeps the body as a Buffer; every other route's JSON parsing (server/app.ts) is
 * unchanged.
 */
async function registerWebhookRoute(scope: FastifyInstance): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  addRoute(scope, {
    method: 'POST',
    url: '/api/Vip/StripeWebhook',
    auth: 'public',
    summary:
      "Stripe's events (checkout.session.completed, invoice.paid, invoice.payment_failed, customer.subscription.updated and .deleted, charge.refunded), signed with STRIPE_WEBHOOK_SECRET. Each event applies once; a missing, wrong or stale signature answers HTTP 400 and changes nothing",
    data: WebhookResultSchema,
    refusedStatus: 400,
    handler: async ({ ctx, req, reply, lang }) => {
      try {
        const result = await receiveStripeWebhook(ctx, req.body, req.headers['stripe-signature']);
        return { received: true, applied: result.applied };
      } catch (err) {
        if (!(err instanceof WebhookRefusal)) throw err;
        reply.code(400).send({ Code: err.code, Msg: t(lang, err.key, err.params), Data: null });
        return RAW;
      }
    },
  });
}
