import { Readable } from 'node:stream';
import { AppError } from '../../errors.js';
import type { AttachmentsService } from '../attachments/attachments.service.js';
import type { CaptureService } from '../capture/capture.service.js';
import type { LimitsService } from '../limits/limits.service.js';
import type { UsersService } from '../users/users.service.js';
import type { EmailInService } from './email-in.service.js';
import { readMail, type MailFile } from './mail-message.js';

/*
 * What becomes of one message: items for the users it is addressed to (through the capture
 * service, so events, search and client_id replays are the API's), or a reason to reject it,
 * or "not now" when a user is over their limits. Nothing here touches the mailbox: the reader moves
 * the message only after this returned, so an item is committed before its mail leaves the inbox.
 */

export type RejectReason = 'unknown_address' | 'malformed' | 'too_large' | 'invalid';

export type Verdict =
  | { kind: 'processed'; created: number; duplicates: number }
  | { kind: 'rejected'; reason: RejectReason; detail: string }
  | { kind: 'deferred'; retryAfterMs: number };

export interface MessageHandlerDeps {
  emailIn: Pick<EmailInService, 'usersAddressed'>;
  users: Pick<UsersService, 'me'>;
  capture: Pick<CaptureService, 'capture'>;
  limits: Pick<LimitsService, 'checkUserRequest'>;
  attachments: Pick<AttachmentsService, 'add' | 'maxBytes' | 'storage'>;
}

/** The files the user's plan and storage take, in the mail's order; the rest are listed in the notes. */
async function storable(deps: MessageHandlerDeps, user: { id: string; plan: 'free' | 'pro' }, files: readonly MailFile[]) {
  const max = deps.attachments.maxBytes(user.plan);
  const { used, limit } = await deps.attachments.storage(user);
  let room = limit - used;
  const stored: MailFile[] = [];
  const listed: MailFile[] = [];
  for (const file of files) {
    if (file.size <= max && file.size <= room) {
      stored.push(file);
      room -= file.size;
    } else listed.push(file);
  }
  return { stored, listed };
}

export async function handleMessage(deps: MessageHandlerDeps, source: Buffer): Promise<Verdict> {
  let mail;
  try {
    mail = await readMail(source);
  } catch (error) {
    return { kind: 'rejected', reason: 'malformed', detail: error instanceof Error ? error.message : String(error) };
  }
  const userIds = await deps.emailIn.usersAddressed(mail.recipients);
  if (userIds.length === 0) {
    return { kind: 'rejected', reason: 'unknown_address', detail: `no current address among ${mail.recipients.length} recipient(s)` };
  }
  let created = 0;
  let duplicates = 0;
  let retryAfterMs = 0;
  for (const userId of userIds) {
    const me = await deps.users.me(userId);
    const user = { id: me.id, email: me.email, plan: me.plan, timezone: me.timezone, keyId: null };
    // Counted like a capture request; over a limit nothing is counted and the mail waits for a later window.
    const decision = await deps.limits.checkUserRequest(user);
    if (!decision.allowed) {
      retryAfterMs = Math.max(retryAfterMs, (decision.retryAfter ?? 60) * 1000);
      continue;
    }
    try {
      const { stored, listed } = mail.files.length === 0 ? { stored: [], listed: [] } : await storable(deps, user, mail.files);
      const text = mail.files.length === 0 ? mail.text : mail.textListing(listed);
      const { item, created: isNew } = await deps.capture.capture(user, { text, parse: true, client_id: mail.clientId });
      if (isNew) {
        created += 1;
        for (const file of stored) {
          await deps.attachments.add({ user, canWrite: true }, item.id, { source: Readable.from([file.content]), filename: file.filename });
        }
      } else duplicates += 1;
    } catch (error) {
      // A 4xx of capture is this message's fault and will not change on a retry; anything else (the database) is retried.
      if (error instanceof AppError && error.statusCode < 500) return { kind: 'rejected', reason: 'invalid', detail: error.message };
      throw error;
    }
  }
  // Users already captured for replay their item (client_id) when the message is read again.
  if (retryAfterMs > 0) return { kind: 'deferred', retryAfterMs };
  return { kind: 'processed', created, duplicates };
}
