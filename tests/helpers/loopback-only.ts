import net from 'node:net';
import { vi } from 'vitest';

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * A safety net for tests of code that must not leave loopback, in case the guard under test were
 * broken: from the call on, every socket the test file's process connects to an IP address outside
 * 127.0.0.0/8 and ::1 throws before Node connects. Call it at the top of the test file. Returns the
 * addresses refused so far, for a test to assert that nothing even tried.
 */
export function allowOnlyLoopbackConnections(): { refused: string[] } {
  const refused: string[] = [];
  const connect = net.Socket.prototype.connect;
  vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const options = (Array.isArray(first) ? first[0] : first) as { host?: string } | number | string;
    const host = typeof options === 'object' && options ? (options.host ?? 'localhost') : 'localhost';
    const family = net.isIP(host);
    if (family !== 0 && !LOOPBACK.check(host, family === 6 ? 'ipv6' : 'ipv4')) {
      refused.push(host);
      throw new Error(`test safety net: refused to connect to ${host}`);
    }
    return connect.apply(this, args as Parameters<typeof connect>);
  });
  return { refused };
}
