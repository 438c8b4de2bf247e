import { hash } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { ItemView } from './item-view.js';

/*
 * Entity tags of items (RFC 9110 section 8.8.3). The tag is a hash of everything an item response
 * shows, tags included, so it changes whenever the item or its tags change and only then; being
 * derived from the representation, it needs no column and cannot drift from what was sent.
 */

/** A strong validator: the SHA-256 (base64url) of the item's fields in a fixed order. */
export function itemEtag(item: ItemView): string {
  const fields = [
    item.id,
    item.project_id,
    item.type,
    item.title,
    item.content_md,
    item.is_completed,
    item.status,
    item.due_at,
    item.parent_id,
    item.tags,
    item.archived_at,
    item.created_at,
    item.updated_at,
    item.recurrence,
    item.remind_at,
    item.all_day,
    item.attachments,
  ];
  return `"${hash('sha256', JSON.stringify(fields), 'base64url')}"`;
}

/** One entity tag of a list, with the separator after it: `W/"x" ,` (etagc is %x21 / %x23-7E / obs-text). */
const LIST_MEMBER = /[ \t]*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/y;

interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** `*`, a list of entity tags, or undefined when the header is not valid (then nothing matches). */
function parseTagList(header: string): '*' | EntityTag[] | undefined {
  if (header.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  LIST_MEMBER.lastIndex = 0;
  while (LIST_MEMBER.lastIndex < header.length) {
    const start = LIST_MEMBER.lastIndex;
    const m = LIST_MEMBER.exec(header);
    if (!m || LIST_MEMBER.lastIndex === start) return undefined;
    tags.push({ weak: m[1] !== undefined, opaque: m[2]! });
  }
  return tags.length > 0 ? tags : undefined;
}

const opaqueOf = (etag: string): string => etag.slice(1, -1);

/** If-Match uses the strong comparison: a weak tag never matches. */
export function ifMatchHolds(header: string, etag: string): boolean {
  const list = parseTagList(header);
  if (list === '*') return true;
  return list?.some((t) => !t.weak && t.opaque === opaqueOf(etag)) ?? false;
}

/** If-None-Match uses the weak comparison. True when the client's copy is current (answer 304). */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  const list = parseTagList(header);
  if (list === '*') return true;
  return list?.some((t) => t.opaque === opaqueOf(etag)) ?? false;
}

/** Checked against the item as it is inside the change's transaction, before anything is written. */
export type ItemPrecondition = (current: ItemView) => void;

/** The precondition an If-Match header sets, or none when the header is absent. */
export function ifMatchPrecondition(header: string | undefined): ItemPrecondition | undefined {
  if (header === undefined) return undefined;
  return (current) => {
    if (!ifMatchHolds(header, itemEtag(current))) {
      throw new AppError('precondition_failed', 'the item changed since you read it (If-Match does not match its ETag); nothing was changed: GET it again');
    }
  };
}
