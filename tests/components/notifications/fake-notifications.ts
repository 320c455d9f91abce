import type { UserNotification } from '../../../shared/contracts/notifications.ts';
import { answer, fakeApi, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';

/** The notification routes as the server answers them, over an in-memory inbox (newest first). */
export function fakeInbox(routes: Record<string, Route> = {}) {
  const inbox: { list: UserNotification[] } = { list: [] };
  const unread = () => inbox.list.filter((n) => !n.read).length;
  const handler = fakeApi({
    '/api/UserNotification/GetUnreadCount': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { unread: unread() } }),
    '/api/UserNotification/GetList': (_req, res, url) => {
      const page = Number(url.searchParams.get('page'));
      const count = Number(url.searchParams.get('count'));
      const list = inbox.list.slice((page - 1) * count, page * count);
      return sendEnvelope(res, { Code: 10000, Data: { list, total: inbox.list.length, unread: unread() } });
    },
    '/api/UserNotification/Read': (req, res) => {
      const { ids } = JSON.parse(req.body) as { ids: string[] };
      inbox.list = inbox.list.map((n) => (ids.includes(n.id) ? { ...n, read: true } : n));
      return sendEnvelope(res, { Code: 10000, Data: { unread: unread() } });
    },
    '/api/UserNotification/ReadAll': (_req, res) => {
      inbox.list = inbox.list.map((n) => ({ ...n, read: true }));
      return sendEnvelope(res, { Code: 10000, Data: { unread: 0 } });
    },
    '/api/System/GetSettingListAll': answer([]),
    ...routes,
  });
  return { inbox, handler };
}

let next = 0;

/** A notification as the server lists it; unread, made now, no link, unless `fields` say otherwise. */
export function notification(fields: Partial<UserNotification> & Pick<UserNotification, 'titleKey'>): UserNotification {
  next += 1;
  return {
    id: `n${next}`,
    kind: 'invite',
    bodyKey: fields.titleKey.replace(/\.title$/, '.body'),
    params: {},
    link: '',
    read: false,
    createTime: '2026-11-26T09:30:00.000Z',
    ...fields,
  };
}
