import net from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../errors/app-error';
import { readMailbox } from '../mail/mailbox';
import type { Handlers } from './handler';

/** Development-only calls; the app does not register them in production mode. */
export const devHandlers: Handlers = {
  getDevMailbox: async (request, _reply, { config, db }) => {
    assertMailboxClient(config, request);
    return { emails: await readMailbox(db) };
  },
};

/**
 * The development mailbox lists every invitation and reset link, so it answers only this machine
 * (a loopback peer that no proxy forwarded for) unless DEV_MAILBOX=1 opens it to every client.
 * Anyone else gets 404, as if it were not there.
 */
export function assertMailboxClient(config: Pick<Config, 'devMailboxAnyClient'>, request: FastifyRequest): void {
  if (config.devMailboxAnyClient) return;
  // The socket's peer, not request.ip: a trusted proxy's X-Forwarded-For must not make a stranger local.
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (forwarded || !isLoopback(request.socket.remoteAddress)) throw AppError.notFound();
}

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** 127.0.0.0/8 (also IPv4-mapped, ::ffff:127.x.y.z) and ::1. */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
  if (net.isIPv4(v4)) return loopback.check(v4, 'ipv4');
  return net.isIPv6(address) && loopback.check(address, 'ipv6');
}
