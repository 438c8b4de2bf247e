/*
 * Files by drag and drop and by paste (contract "Attachments"): on an item page the file goes onto
 * the item, through the same route as the page's plain upload form; on a page with the capture box
 * (Today, the Inbox) a new item is made, named by the typed text or else the file's name, with the
 * file attached. Problems (too large, storage full) are said in the page; nothing is stored then.
 */

interface UploadAnswer {
  ok: boolean;
  item_url: string;
  message?: string;
  problem?: string;
}

const PROBLEMS: Record<string, string> = {
  too_large: 'That file is larger than your plan allows (5 MiB a file on Free, 25 MiB on Pro). Nothing was saved.',
  quota: 'Your file storage is full (100 MiB on Free, 10 GiB on Pro): delete some files first. Nothing was saved.',
  limit: 'You reached your plan’s request limit; try again in a minute. Nothing was saved.',
};

/** Where a file dropped or pasted on this page goes, and what to say while it does. */
interface Target {
  url: string;
  csrf: string;
  /** The text that names a new item (the capture box), when the target makes one. */
  text?: () => string;
  /** Shows a message beside the target. */
  say(message: string, isError: boolean): void;
}

function messageBox(container: Element, id: string): HTMLElement {
  let box = document.getElementById(id);
  if (!box) {
    box = document.createElement('div');
    box.id = id;
    container.append(box);
  }
  return box;
}

function sayIn(box: HTMLElement, message: string, isError: boolean): void {
  box.hidden = false;
  box.className = isError ? 'alert error' : 'alert';
  box.setAttribute('role', isError ? 'alert' : 'status');
  box.textContent = message;
}

function findTarget(): Target | null {
  const section = document.querySelector<HTMLElement>('[data-drop-target]');
  if (section) {
    const csrf = section.querySelector<HTMLInputElement>('input[name=_csrf]')?.value ?? '';
    const box = document.getElementById('attachment-error') ?? messageBox(section, 'attachment-error');
    return { url: section.getAttribute('data-drop-target')!, csrf, say: (m, e) => sayIn(box, m, e) };
  }
  const form = document.querySelector<HTMLFormElement>('form.capture');
  if (!form) return null;
  const csrf = form.querySelector<HTMLInputElement>('input[name=_csrf]')?.value ?? '';
  const textarea = form.querySelector<HTMLTextAreaElement>('textarea[name=text]');
  const box = messageBox(form, 'capture-file-status');
  return { url: '/inbox/attach', csrf, text: () => textarea?.value ?? '', say: (m, e) => sayIn(box, m, e) };
}

async function upload(target: Target, file: File): Promise<void> {
  const body = new FormData();
  // The token first: the server reads the file only after it (web/attachments-upload.ts).
  body.append('_csrf', target.csrf);
  if (target.text) body.append('text', target.text());
  body.append('file', file, file.name || 'pasted image.png');
  target.say(`Uploading ${file.name || 'the pasted image'}…`, false);
  let answer: UploadAnswer;
  try {
    const response = await fetch(target.url, { method: 'POST', body, headers: { accept: 'application/json' }, credentials: 'same-origin' });
    answer = (await response.json()) as UploadAnswer;
  } catch {
    target.say('The file could not be sent: check the connection and try again. Nothing was saved.', true);
    return;
  }
  if (!answer.ok) {
    target.say((answer.problem && PROBLEMS[answer.problem]) ?? `The file was not saved: ${answer.message ?? 'try again'}.`, true);
    return;
  }
  const next = new URL(`${answer.item_url}?done=attached#attachments`, window.location.href);
  // Only the hash would differ (a second file on the same page): the browser would not load the page again.
  if (next.href === window.location.href) window.location.reload();
  else window.location.assign(next.href);
}

const hasFiles = (data: DataTransfer | null): boolean => Boolean(data && Array.from(data.types).includes('Files'));

export function installAttachments(): void {
  const target = findTarget();
  if (!target) return;
  const zone = document.querySelector<HTMLElement>('[data-drop-target]') ?? document.querySelector<HTMLElement>('form.capture');
  document.addEventListener('dragover', (event) => {
    if (!hasFiles(event.dataTransfer)) return;
    // Without this the browser would open the file in place of the page.
    event.preventDefault();
    zone?.classList.add('drop-over');
  });
  document.addEventListener('dragleave', (event) => {
    if (event.target === document.documentElement || event.target === document.body) zone?.classList.remove('drop-over');
  });
  document.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files[0];
    if (!file) return;
    event.preventDefault();
    zone?.classList.remove('drop-over');
    void upload(target, file);
  });
  document.addEventListener('paste', (event) => {
    const file = Array.from(event.clipboardData?.files ?? [])[0];
    // Text pastes stay text; only a pasted file (an image from the clipboard) is uploaded.
    if (!file) return;
    event.preventDefault();
    void upload(target, file);
  });
}
