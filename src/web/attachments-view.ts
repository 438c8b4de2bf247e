import type { AttachmentView } from '../schemas/item.js';
import { html, type SafeHtml } from './html.js';
import { csrfField } from './layout.js';

const KIB = 1024;
const MIB = 1024 * KIB;

/** "3.2 MiB", "14 KiB", "120 bytes". */
function formatSize(bytes: number): string {
  if (bytes >= MIB) return `${Math.round((bytes / MIB) * 10) / 10} MiB`;
  if (bytes >= KIB) return `${Math.round(bytes / KIB)} KiB`;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

/** What a type is, in words. */
function kindOf(type: string): string {
  if (type.startsWith('image/')) return 'Image';
  if (type === 'application/pdf') return 'PDF';
  if (type.startsWith('audio/')) return 'Audio';
  if (type.startsWith('video/')) return 'Video';
  if (type.startsWith('text/plain')) return 'Text';
  return 'File';
}

/** Images the browser shows in an <img> from the download URL (SVG never: it may carry script). */
const isPicture = (type: string): boolean => type.startsWith('image/') && !type.startsWith('image/svg');

const attachmentUrl = (id: string): string => `/inbox/attachments/${id}`;

/** One attachment: thumbnail or player where safe, name, kind and size, download link, delete (asks first, in the page). */
function attachmentRow(a: AttachmentView, csrf: string): SafeHtml {
  const url = attachmentUrl(a.id);
  const preview = isPicture(a.content_type)
    ? html`<a class="attachment-thumb" href="${url}"><img src="${url}" alt="${a.filename}" loading="lazy" width="96" height="96"></a>`
    : a.content_type.startsWith('audio/')
      ? html`<audio controls preload="none" src="${url}"></audio>`
      : '';
  return html`<li class="attachment" data-attachment="${a.id}">${preview}
  <div class="attachment-info"><a href="${url}" download="${a.filename}">${a.filename}</a>
  <p class="small muted">${kindOf(a.content_type)} · ${formatSize(a.size)}</p></div>
  <form method="post" action="${url}/delete" data-confirm="Delete ${a.filename}? This cannot be undone.">${csrfField(csrf)}<input type="hidden" name="item_id" value="${a.item_id}"><button class="danger small" type="submit">Delete</button></form></li>`;
}

/**
 * The item page's files: the list, and a plain form to add one that works without the script (the
 * script adds dropping and pasting, web/client/attachments). `error` is what went wrong with the last upload.
 */
export function attachmentsSection(d: { itemId: string; csrf: string; attachments: readonly AttachmentView[]; error?: string | undefined }): SafeHtml {
  const action = `/inbox/items/${d.itemId}/attachments`;
  return html`<section class="card" id="attachments" aria-labelledby="attachments-heading" data-drop-target="${action}">
  <h2 id="attachments-heading">Files${d.attachments.length > 0 ? html` <span class="count">${d.attachments.length}</span>` : ''}</h2>
  ${d.error ? html`<div class="alert error" role="alert" id="attachment-error">${d.error}</div>` : html`<div class="alert error" role="alert" id="attachment-error" hidden></div>`}
  ${d.attachments.length > 0 ? html`<ul class="attachments">${d.attachments.map((a) => attachmentRow(a, d.csrf))}</ul>` : html`<p class="muted small">No files yet.</p>`}
  <form class="attach-form" method="post" action="${action}" enctype="multipart/form-data">${csrfField(d.csrf)}
  <label for="attach-file">Add a file</label>
  <p class="hint" id="attach-hint">Images, PDFs, audio or any other file. On a computer you can also drop a file here or paste an image.</p>
  <input id="attach-file" name="file" type="file" required aria-describedby="attach-hint">
  <button type="submit">Upload</button></form>
</section>`;
}

const PROBLEMS: Record<string, string> = {
  too_large: 'That file is larger than your plan allows (5 MiB a file on Free, 25 MiB on Pro). Nothing was saved.',
  quota: 'Your file storage is full (100 MiB on Free, 10 GiB on Pro): delete some files first. Nothing was saved.',
  no_file: 'Choose a file to upload first.',
  limit: 'You reached your plan’s request limit; try again in a minute. Nothing was saved.',
  failed: 'The file could not be saved; nothing was stored. Try again.',
};

/** The last upload's problem (the upload routes' redirect says which), in plain words. */
export const uploadProblem = (code: string | undefined): string | undefined => (code ? (PROBLEMS[code] ?? PROBLEMS.failed) : undefined);
